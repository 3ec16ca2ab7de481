# shellcheck shell=bash disable=SC2034  # variables for the scripts that source this file
# Shared by the Linux packaging scripts; source it from the repository root.
PYTHON="${PYTHON:-python3}"
project_info="$("$PYTHON" packaging/project.py)"
read -r VERSION APP_ID _ <<< "$project_info"
ARCH="$(dpkg --print-architecture)"
DEB="dist/memdesk_${VERSION}_${ARCH}.deb"
