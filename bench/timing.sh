# timing.sh: what the interleaved bench scripts share (sourced, not run).
# Each times one run of a command at a time, rotating the cases, so that a
# noisy machine slows them all alike.

# timed runs a command once, output discarded, and appends its wall time
# (µs) to the array named by $1.
timed() {
	local -n into=$1
	shift
	local t0=${EPOCHREALTIME/./}
	"$@" </dev/null >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
	local t1=${EPOCHREALTIME/./}
	into+=($((t1 - t0)))
}

# median and p90 print those of the array named by $1, in ms.
median() {
	local -n xs=$1
	printf '%s\n' "${xs[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m/1000}'
}
p90() {
	local -n xs=$1
	printf '%s\n' "${xs[@]}" | sort -n | awk '{a[NR]=$1} END {i=int(NR*0.9+0.999); if(i>NR)i=NR; printf "%.2f", a[i]/1000}'
}
