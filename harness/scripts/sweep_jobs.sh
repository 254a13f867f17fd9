# sweep_jobs.sh — sourced by sweep.sh: one launch of the sweep (launch), its platform folder
# (platform_dir), and the bookkeeping of the launches in flight (reap, finish): a launch that ended is
# merged into scaling.csv, or, when it failed, its one-line reason (reason) goes to the screen, to the
# end of its raw/*.log and to the table of failures the sweep ends with (failures). The other launches
# still run. Uses sweep.sh's variables (out, backend, algos, ...).
# shellcheck shell=sh disable=SC2086,SC2154
human() { if [ "$1" -lt 120 ]; then echo "$1 s"; elif [ "$1" -lt 7200 ]; then echo "$((($1 + 30) / 60)) min"
          else echo "$(($1 / 3600)).$(($1 % 3600 / 360)) h"; fi; }

launch() { # ranks nodes gpus_per_node csv model batch ring_modelled
    r=$1 nn=$2 gp=$3 csv=$4 model=$5 batch=$6 la=$algos
    bopt="--batch $batch" # strong scaling: the global batch, divided by ddlbench over the launch's GPUs
    [ "${global_batch:-0}" = 0 ] || bopt="--global-batch $global_batch"
    if [ "$7" = 1 ]; then # the ring's rows from the model, into a CSV of their own beside
        la=$(echo ",$algos," | sed 's/,ring,/,/; s/^,//; s/,$//')
        set -f
        set -- "$build/ddlbench" model --train --model "$model" $bopt -a ring --bucket-mb "$bucket" \
            --csv "${csv%.csv}-model.csv" $train_args --preset "$platform" --nodes "$nn" --gpus-per-node "$gp" \
            --profile "$profile" $part
        set +f
        if [ "$dry" = 1 ]; then echo "$*"; else "$@" || return 1; fi
        [ -n "$la" ] || return 0
    fi
    set -f # no globbing of --train-args
    set -- train --model "$model" $bopt -a "$la" --bucket-mb "$bucket" --csv "$csv" $train_args
    [ "$backend" = model ] || set -- "$@" --per-rank
    set +f
    if [ "$backend" = model ]; then # no launch: the step composed from the alpha-beta-gamma model
        shift
        set -- "$build/ddlbench" model --train "$@" --preset "$platform" --nodes "$nn" --gpus-per-node "$gp" \
            --profile "$profile" $part
        if [ "$dry" = 1 ]; then echo "$*"; else "$@"; fi
        return
    fi
    # one launcher (launch.sh): sim on the launch's platform folder (made by platform_dir before it
    # started), mpi on this machine or placed on the allocation's nodes, emu on the sweep's cluster
    [ "$backend" = sim ] && set -- "$@" --profile "$profile" --platform "$platform" --gpus-per-node "$gp" $part
    [ "$backend" = mpi ] && [ -n "$platform" ] && set -- "$@" --platform "$platform" --gpus-per-node "$gp" $part
    lb=$backend; case $backend in sim) lb=simulated;; emu) lb=emulated;; esac
    # shellcheck disable=SC2046 # one word or none
    sh "$here/launch.sh" $([ "$dry" = 1 ] && echo --dry-run) -b "$lb" -n "$r" -g "$gp" -p "$out/platforms/$nn-$gp" \
        -e sweep "$exe" "$@"
}

# allreduce_launch ranks gpus_per_node csv: mpi: the allocation's own allreduce sweep at one scale (issue
# 48 item 3), nccl-tests' sizes 1K..64M by 8, every algorithm of the sweep, on the launch's nodes (the
# platform, when given, sizes libddl's segments as in the training launches); the CUDA build's device
# buffers under --device gpu. run_allreduce.sh joins the CSVs into the run's allreduce.csv.
allreduce_launch() {
    l_n=$1 l_g=$2
    set -- allreduce -a "$algos" -b 1K -e 64M -f 8 -w 2 -n 10 --csv "$3"
    [ "$device" = gpu ] && set -- "$@" --device gpu
    [ -n "$platform" ] && set -- "$@" --platform "$platform" --gpus-per-node "$l_g"
    # shellcheck disable=SC2046 # one word or none
    sh "$here/launch.sh" $([ "$dry" = 1 ] && echo --dry-run) -b mpi -n "$l_n" -g "$l_g" "$exe" "$@"
}
# allreduce_sweep: allreduce_launch at each GPU count of the plan from 2 up, one at a time after the
# training launches, each into OUT/allreduce/allreduce-G.csv (kept by --resume); a failure is said and
# makes the sweep's status 1, the others still run
allreduce_sweep() {
    [ "$dry" = 1 ] || mkdir -p "$out/allreduce" || return 1
    for a_s in $(echo "$plan" | awk '$5 >= 2 { print $5 ":" $7 }' | sort -t: -k1,1n -u); do
        a_g=${a_s%:*} a_gp=${a_s#*:} a_csv=$out/allreduce/allreduce-${a_s%:*}.csv
        if [ "$dry" = 1 ]; then allreduce_launch "$a_g" "$a_gp" "$a_csv"; continue; fi
        [ "$resume" = 1 ] && [ -s "$a_csv" ] && continue
        a_t=$(date +%s)
        if allreduce_launch "$a_g" "$a_gp" "$a_csv" </dev/null >"${a_csv%.csv}.log" 2>&1; then
            [ "$quiet" = 1 ] || echo "[allreduce] $a_g GPUs ($algos, 1K-64M) took $(human $(($(date +%s) - a_t)))" >&2
        else
            echo "sweep.sh: the allreduce sweep at $a_g GPUs failed: $(reason \
                "${a_csv%.csv}.log") (log: ${a_csv%.csv}.log)" >&2
            rm -f "$a_csv"; status=1
        fi
    done
}

# platform_dir nodes gpus_per_node: sim: the launch's platform folder, made in the foreground before the
# launch starts (two launches at once on the same platform, e.g. both models at 256 GPUs, raced to
# rename the same platform.xml.tmp and one failed). 0, or 2 when `ddlbench platform` fails.
platform_dir() {
    [ "$backend" = sim ] || return 0
    pd=$out/platforms/$1-$2
    [ -f "$pd/platform.xml" ] || { mkdir -p "$pd" && "$build/ddlbench" platform --preset "$platform" --nodes "$1" \
        --gpus-per-node "$2" $part -o "$pd" >/dev/null; } || return 2
}

finish() { # model g start weight ring_modelled: one launch ended; merge its CSV and say where the sweep stands
    f_rc=$(cat "$out/raw/$1-$2.rc" 2>/dev/null || echo 1); rm -f "$out/raw/$1-$2.rc"
    done_n=$((done_n + 1)); f_now=$(date +%s); f_csv=$out/raw/$1-$2.csv; todo=$((todo - $4))
    if [ "$f_rc" != 0 ]; then
        f_why=$(reason "$out/raw/$1-$2.log")
        echo "# sweep.sh: failed (exit $f_rc): $f_why" >>"$out/raw/$1-$2.log"
        echo "sweep.sh: $1 at $2 GPUs failed (exit $f_rc): $f_why (log: $out/raw/$1-$2.log)" >&2
        failed="$failed$1|$2|$f_rc|$f_why
"
        [ -f "$f_csv" ] && mv -f "$f_csv" "$f_csv.partial" # rows of a failed launch: kept aside, redone by --resume
        status=1
        return
    fi
    sweep merge "$out" # raw/*.csv -> scaling.csv (efficiencies) and scaling.json, written whole
    spent=$((spent + f_now - $3)); spent_units=$((spent_units + $4))
    [ "$quiet" = 1 ] && return
    # time left: the work not finished at the rate measured so far (seconds per unit and launch),
    # spread over the jobs, and never less than the longest launch in flight still needs
    f_left=$(echo "$running" | tr ' ' '\n' | awk -F'|' -v now="$f_now" -v s="$spent" -v u="$spent_units" \
        -v todo="$todo" -v j="$jobs" -v c="$SEC_PER_KUNIT" '
        BEGIN { r = u > 0 && s > 0 ? s / u : c / 1000 }
        NF == 6 { x = $5 * r - (now - $4); if (x > m) m = x }
        END { t = todo * r / j; printf "%d\n", (t > m ? t : m) + 0.5 }')
    f_how="$backend; $algos"; [ "$5" = 1 ] && f_how="$f_how; ring from the model"
    echo "[$done_n/$total] $1 $2 GPUs ($f_how) took $(human $((f_now - $3))); elapsed $(human \
        $((f_now - start))), about $(human "$f_left") left" >&2
}
reap() { # wait until fewer than $1 launches are in flight, finishing those that ended
    r_k=0
    while :; do
        r_still="" r_n=0 r_ended=""
        for r_e in $running; do
            r_m=${r_e#*|}; r_g=${r_m#*|}; r_g=${r_g%%|*}; r_m=${r_m%%|*}
            if [ -f "$out/raw/$r_m-$r_g.rc" ]; then r_ended="$r_ended $r_e"
                else r_still="$r_still $r_e" r_n=$((r_n + 1)); fi
        done
        running=$r_still
        for r_e in $r_ended; do
            wait "${r_e%%|*}"
            # shellcheck disable=SC2046
            finish $(echo "${r_e#*|}" | tr '|' ' ')
            said=$(date +%s)
        done
        [ "$r_n" -lt "$1" ] && return
        r_k=$((r_k + 1)); [ $((r_k % 50)) -eq 0 ] && still # every 10 s or so
        sleep 0.2
    done
}
# still: a line a minute while launches run and none ended (a 1,024-rank simulation takes minutes):
# "[3/20] still running: resnet101-22k 1024 GPUs for 4 min, ...; elapsed 5 min"
still() {
    [ "$quiet" = 1 ] && return
    s_now=$(date +%s)
    [ $((s_now - ${said:-$start})) -ge 60 ] || return 0
    said=$s_now
    s_what=$(echo "$running" | tr ' ' '\n' | while IFS='|' read -r _ s_m s_g s_t _; do
        [ -n "$s_t" ] && printf ', %s %s GPUs for %s' "$s_m" "$s_g" "$(human $((s_now - s_t)))"; done)
    echo "[$done_n/$total] still running: ${s_what#, }; elapsed $(human $((s_now - start)))" >&2
}

# reason LOG: a failed launch's cause, one line: the first message of ddlbench or of a launch script
# ("ddlbench train: ddl: grid 4x2 has 8 ranks but the communicator has 1"), else the log's last line
# that is neither a comment nor the launcher's echo of its command, else "no output"
reason() {
    awk '/^(ddlbench|simlaunch\.sh|mpilaunch\.sh|emucluster\.sh)[^:]*: / && !/^[^:]*: (raised|note)/ { print;
        found = 1; exit }
         !/^#/ && !/--cfg=/ && !/^Execution failed/ && NF { last = $0 }
         END { if (!found) print (last != "" ? last : "no output") }' "$1" | cut -c1-300
}
# failures: the table of failed launches the sweep ends with
failures() {
    [ -n "$failed" ] || return 0
    echo "sweep.sh: $(printf '%s' "$failed" | grep -c .) of $total launches failed:" >&2
    printf '%s' "$failed" | sort -t'|' -k1,1 -k2,2n |
        awk -F'|' '{ printf "  %-16s %5s GPUs  exit %-3s %s\n", $1, $2, $3, $4 }' >&2
}
