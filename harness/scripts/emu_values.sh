# emu_values.sh — sourced by emucluster.sh (not run): the checks of its --rate and --delay values.
# Each prints one line through the caller's die() (exit 2) when the value is malformed.

# rate_bits R: R (e.g. 500mbit) in bit/s on stdout, or one line and exit 2
rate_bits() {
    v=$(echo "$1" | sed -n 's/^\([1-9][0-9]*\)\(bit\|kbit\|mbit\|gbit\)$/\1 \2/p')
    [ -n "$v" ] || die "--rate: expected a number with unit bit, kbit, mbit or gbit (e.g. 500mbit) or none, got \"$1\""
    set -- $v
    [ ${#1} -le 6 ] || die "--rate: expected at most 999999 of a unit, got \"$1$2\""
    case $2 in bit) m=1;; kbit) m=1000;; mbit) m=1000000;; gbit) m=1000000000;; esac
    bits=$(($1 * m))
    [ "$bits" -ge 8000 ] && [ "$bits" -le 400000000000 ] || die "--rate: expected 8kbit..400gbit, got \"$1$2\""
    echo "$bits"
}

check_delay() { # D: none, or an integer with us or ms up to 1 s; else one line and exit 2
    case $1 in none) return 0;; *[0-9]us|*[0-9]ms) ;;
    *) die "--delay: expected an integer with us or ms (e.g. 200us), got \"$1\"";; esac
    v=${1%??}
    case $v in ''|*[!0-9]*) die "--delay: expected an integer with us or ms (e.g. 200us), got \"$1\"";; esac
    [ ${#v} -le 7 ] && { [ "${1#"$v"}" = us ] && [ "$v" -le 1000000 ] || [ "$v" -le 1000 ]; } ||
        die "--delay: expected at most 1000ms, got \"$1\""
}
