package study

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
)

// MaxRepeats bounds the repeats of one workload in one run: more is not a
// measurement plan but a flood of files.
const MaxRepeats = 100

// repeatMark starts the repeat suffix of a log name: sharegpt.run-2.log.
const repeatMark = ".run-"

// LogName splits the stem of a log file name (the name without .log or
// .json) into the workload it measures and its repeat: "sharegpt" is
// workload sharegpt measured once (repeat 0); "sharegpt.run-2" is its second
// repeat. A suffix that is not a whole number from 1 without leading zeros
// ("sharegpt.run-0", "sharegpt.run-02") is not a repeat: the whole stem is
// then taken as the workload, which names none.
//
// Other suffixes of the same kind (a concurrency level) go here, before the
// repeat: <workload>.c16.run-2.
func LogName(stem string) (workload string, repeat int) {
	i := strings.LastIndex(stem, repeatMark)
	if i <= 0 {
		return stem, 0
	}
	digits := stem[i+len(repeatMark):]
	if digits == "" || digits[0] == '0' || len(digits) > 3 || strings.Trim(digits, "0123456789") != "" {
		return stem, 0
	}
	n, _ := strconv.Atoi(digits) // digits only, at most three
	return stem[:i], n
}

// SplitLogName reads the stem of a log file name (the name without .log
// or .json) as the loader does, for tools that name logs (perflab add):
// the workload part, the load it names (prefix "c" or "rps" and the load
// as written, both empty for none) and its repeat (0 for none).
// "chat.c16.run-2" is chat at c16, repeat 2. A stem that isWorkload
// accepts is never split into a workload and a load.
func SplitLogName(stem string, isWorkload func(string) bool) (workload, prefix, load string, repeat int) {
	stem, repeat = LogName(stem)
	if isWorkload(stem) {
		return stem, "", "", repeat
	}
	if m := pointName.FindStringSubmatch(stem); m != nil {
		return m[1], m[2], m[3], repeat
	}
	return stem, "", "", repeat
}

// logKey is what one log file of a run holds: a workload, and its repeat
// (0 for a plain <workload>.log).
type logKey struct {
	workload string
	repeat   int
}

// repeatProblems checks the log names a run folder holds: a workload (or
// a load of a sweep) is either one plain log or repeats numbered from 1
// without gaps.
func (l *loader) repeatProblems(shown string, logs *logSet) {
	names := logs.names
	byWorkload := map[string][]int{}
	for k := range names {
		byWorkload[k.workload] = append(byWorkload[k.workload], k.repeat)
	}
	workloads := make([]string, 0, len(byWorkload))
	for w := range byWorkload {
		workloads = append(workloads, w)
	}
	sort.Strings(workloads)
	for _, w := range workloads {
		reps := byWorkload[w]
		sort.Ints(reps)
		if len(reps) == 1 && reps[0] == 0 {
			continue // a plain log
		}
		if reps[0] == 0 {
			plain, numbered := names[logKey{w, 0}], names[logKey{w, reps[1]}]
			l.problem(Pos{path.Join(shown, numbered), 0}, "%s and %s both hold %s: a plain log is a single measurement, numbered logs are repeats; rename %s to %s%s1%s, or remove it", plain, numbered, logs.what(w), plain, w, repeatMark, path.Ext(plain))
			reps = reps[1:]
		}
		for i, n := range reps {
			if n != i+1 {
				file := names[logKey{w, n}]
				l.problem(Pos{path.Join(shown, file), 0}, "repeats of %s are numbered from 1 without gaps, but %s%s%d is missing before %s: rename the repeats run-1, run-2, ... in order", logs.what(w), w, repeatMark, i+1, file)
				break
			}
		}
	}
}

// tooManyRepeats is the problem of a run with more than MaxRepeats logs
// for one workload; the logs past the limit are not read.
func tooManyRepeats(workload string) string {
	return fmt.Sprintf("more than %d repeats of workload %s: the logs past the limit are not read; keep at most %d", MaxRepeats, workload, MaxRepeats)
}
