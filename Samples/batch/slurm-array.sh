#!/usr/bin/env bash
# The same catalogue scan as a Slurm job array (sbatch Samples/batch/slurm-array.sh): task K of
# 1-16 takes the K-th of 16 slices. With GNU parallel on one machine instead:
#   parallel -j4 captions flashes /catalogue -r -o /results --format json --shard {}/4 --resume ::: 1 2 3 4
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
set -euo pipefail
captions flashes /catalogue --recursive --output /results --format json \
  --shard "${SLURM_ARRAY_TASK_ID}/16" --resume --results jsonl > "/results/shard-${SLURM_ARRAY_TASK_ID}.jsonl"
