#!/usr/bin/env bash
# ASReview LAB in this tool's own virtual environment (.venv), at the pinned versions.
set -euo pipefail
cd "$(dirname "$0")"
python3 -m venv .venv
.venv/bin/pip install --quiet -r requirements.txt
.venv/bin/python -c 'import asreview; print("asreview", asreview.__version__)'
