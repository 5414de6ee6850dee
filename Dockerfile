# Captions for batch work: Debian 12 with the Swift toolchain, set up by the README's own command
# (Scripts/setup.sh: FFmpeg, libxml2, uchardet, espeak-ng, the offline speech recogniser), without
# what only the tests need. One stage, so the speech helper's virtual environment keeps its paths.
#   docker build -t captions .
#   docker run --rm -v "$PWD:/data" captions flashes /data/clips -r -o /data/reports --results jsonl
FROM swift:6.3-bookworm
ENV CAPTIONS_RUNTIME_ONLY=1 DEBIAN_FRONTEND=noninteractive
WORKDIR /opt/captions
COPY Package.swift ./
COPY Sources ./Sources
COPY Scripts ./Scripts
COPY Tests ./Tests
RUN Scripts/setup.sh \
    && ln -s /opt/captions/.build/release/captions /usr/local/bin/captions \
    && rm -rf /var/lib/apt/lists/* .build/release/*.build .build/checkouts .build/repositories
WORKDIR /data
ENTRYPOINT ["captions"]
CMD ["--help"]
