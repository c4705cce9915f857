#!/bin/sh
# Kioku morning-brief check (BRIEF-1): disk space. Prints only when something needs attention;
# silence means "all is well" and no memory is written (seed 000 §--brief: 沒變化就不要輸出).
#
# Use it:  mkdir -p ~/.roles/<ID>.checks
#          cp example-disk.sh ~/.roles/<ID>.checks/ && chmod +x ~/.roles/<ID>.checks/example-disk.sh
#
# Settings (optional): DISK_ALERT_PERCENT (default 90) and DISK_PATHS (default "/ $HOME").
# cron has none of your shell's variables, so — like the seed's examples — they are also read
# from ~/.roles/.env, taking only the one line needed (never source a whole file of secrets).
set -u

roles_env="${ROLE_HOME:-$HOME/.roles}/.env"
from_env_file() {
  [ -r "$roles_env" ] || return 0
  sed -n "s/^[[:space:]]*\(export[[:space:]]\{1,\}\)\{0,1\}$1=//p" "$roles_env" | tail -n 1 | tr -d "\"'"
}

limit="${DISK_ALERT_PERCENT:-$(from_env_file DISK_ALERT_PERCENT)}"
paths="${DISK_PATHS:-$(from_env_file DISK_PATHS)}"
case "$limit" in '' | *[!0-9]*) limit=90 ;; esac
[ -n "$paths" ] || paths="/ $HOME"

# df -P: one line per file system, POSIX columns (Use% is the 5th, the mount point the 6th).
# shellcheck disable=SC2086
df -P -k $paths 2>/dev/null | awk -v limit="$limit" '
  NR > 1 && !seen[$6]++ {
    used = $5; sub(/%/, "", used)
    if (used + 0 >= limit) {
      free_gb = $4 / 1048576
      printf "磁碟 %s 使用率 %d%%（警戒 %d%%），剩餘 %.1f GB\n", $6, used, limit, free_gb
    }
  }'
exit 0
