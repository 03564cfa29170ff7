# Sourced by the capture scripts (POSIX sh, for FreeBSD's /bin/sh too): the
# refusals that keep a capture from overwriting a file or writing into the
# data it traces. The caller defines die() and sets $force (0 or 1) and
# $data (the --data folder, or empty).

# check_output FILE: FILE may be written: it does not exist (or -f was
# given), is not a folder, its folder exists, and it is not under --data.
check_output() {
  if [ -e "$1" ] && [ "$force" -eq 0 ]; then die "$1 exists (add -f to overwrite it)"; fi
  [ ! -d "$1" ] || die "$1 is a folder"
  [ -d "$(dirname -- "$1")" ] || die "the folder of $1 does not exist"
  if [ -n "$data" ]; then
    [ -d "$data" ] || die "--data $data is not a folder"
    check_data_real="$(cd -- "$data" && pwd -P)"
    check_file_real="$(cd -- "$(dirname -- "$1")" && pwd -P)"
    case "$check_file_real/" in
      "$check_data_real"/*) die "refusing to write $1 inside the traced data folder $data" ;;
    esac
  fi
}
