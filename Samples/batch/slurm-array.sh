#!/usr/bin/env bash
# The same catalogue scan as a Slurm job array (sbatch Samples/batch/slurm-array.sh): task K of
# 1-16 takes the K-th of 16 slices. With GNU parallel on one machine instead:
#   parallel -j4 captions flashes /catalogue -r -o /results --format json --shard {}/4 --resume ::: 1 2 3 4
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
# Exit 2 means a video failed the check and every video was read: a result, not a failed task
# (1 is a file that could not be read, whatever else failed the check: the task fails, and a rerun
# with --resume tries those files again).
set -uo pipefail
captions flashes /catalogue --recursive --output /results --format json \
  --shard "${SLURM_ARRAY_TASK_ID}/16" --resume --results jsonl > "/results/shard-${SLURM_ARRAY_TASK_ID}.jsonl"
status=$?
[ "$status" -eq 2 ] && exit 0
exit "$status"
