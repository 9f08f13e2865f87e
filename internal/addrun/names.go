package addrun

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

// A contributor's log may be named as the run folder names its logs
// (docs/results-format.md): <workload>.run-<n>.log is repeat n of the
// workload, <workload>.c<N>.log or .rps<R>.log one load of a swept
// workload, <workload>.c<N>.run-<n>.log a repeat of that load; and a log
// under a folder history/<version>/ is an earlier measurement on that
// engine version. Each keeps its meaning in the run perflab add writes.

// logName is what an input's path says about the log, before its
// workload is known.
type logName struct {
	workload       string // the file name's workload part ("random-1k" of random-1k.c16.run-2.log)
	prefix, load   string // the load the name gives ("c", "16"); empty for none
	repeat         int    // 0: none
	history        string // the version folder above the log ("v0.10.1"); empty for none
	historyVersion study.Version
}

// named reports whether the name says more than a plain <workload>.log.
func (n logName) named() bool { return n.prefix != "" || n.repeat > 0 }

// readName reads an input's path against the study's workloads.
func readName(s *study.Study, p string) (logName, error) {
	base := filepath.Base(p)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	var n logName
	n.workload, n.prefix, n.load, n.repeat = study.SplitLogName(stem, func(id string) bool { return s.Workload(id) != nil })
	dir := filepath.Dir(p)
	if filepath.Base(filepath.Dir(dir)) == study.HistoryDir {
		n.history = filepath.Base(dir)
		v, err := study.ParseVersion(n.history)
		if err != nil {
			return n, fmt.Errorf("%s: a log under %s/%s/ is an earlier measurement on that engine version, but %v; name the folder after the version of the engine it ran on (%s/v0.10.1/), or move the log out of %s/", p, study.HistoryDir, n.history, err, study.HistoryDir, study.HistoryDir)
		}
		n.historyVersion = v
	}
	return n, nil
}

// point finds the sweep point of a log of workload w: the load its file
// name gives, else, for a swept workload, the load the block or the
// benchmark's settings print. It fails when the study's sweep does not
// have that load, and on a swept workload's log that says no load.
func point(s *study.Study, w *study.Workload, lg *Log, n logName) error {
	sw := w.Sweep
	printed, where := printedLoad(w, lg)
	if n.prefix != "" {
		if sw == nil {
			return fmt.Errorf("%s: the file name gives a load (%s%s), but workload %s has no sweep (%s:%d): declare its loads there, as sweep: {%s: [...]}, or rename the file %s.log", lg.From, n.prefix, n.load, w.ID, w.Pos.File, w.Pos.Line, loadKey(n.prefix), w.ID)
		}
		if n.prefix != sw.Prefix() {
			return fmt.Errorf("%s: workload %s sweeps %s (%s:%d): name its logs %s.%s<load>.log", lg.From, w.ID, sw.Key, sw.Pos.File, sw.Pos.Line, w.ID, sw.Prefix())
		}
		v, err := strconv.ParseFloat(n.load, 64)
		if err != nil || !sw.Has(v) {
			return fmt.Errorf("%s: load %s is not a point of the sweep of workload %s (%s:%d lists %s): add it there, or rename the file after the load it measured", lg.From, n.load, w.ID, sw.Pos.File, sw.Pos.Line, points(sw))
		}
		p := study.SweepPoint{Value: v, Raw: n.load}
		if printed != "" {
			if x, err := strconv.ParseFloat(printed, 64); err == nil && !p.Matches(x) {
				return fmt.Errorf("%s: the file name gives %s %s, but %s says %s: rename the file after the load it measured", lg.From, sw.Key, n.load, where, printed)
			}
		}
		lg.Point = &p
		lg.prefix = sw.Prefix()
		return nil
	}
	if sw == nil {
		return nil
	}
	if printed == "" {
		return fmt.Errorf("%s: workload %s is a sweep (%s:%d lists %s %s) and the log prints no load: name the file %s.%s<load>.log after the load it measured", lg.From, w.ID, sw.Pos.File, sw.Pos.Line, sw.Key, points(sw), w.ID, sw.Prefix())
	}
	x, err := strconv.ParseFloat(printed, 64)
	p, ok := sw.Point(x)
	if err != nil || !ok {
		return fmt.Errorf("%s: %s says %s %s, which is not a point of the sweep of workload %s (%s:%d lists %s): add it there, or pass the log of a load it lists", lg.From, where, sw.Key, printed, w.ID, sw.Pos.File, sw.Pos.Line, points(sw))
	}
	lg.Point, lg.prefix = &p, sw.Prefix()
	lg.LoadFrom = where
	return nil
}

// printedLoad is the load of w's sweep (or, without a sweep, the
// concurrency) that the block prints or, failing that, the benchmark's
// settings in the log; "" when neither says.
func printedLoad(w *study.Workload, lg *Log) (value, where string) {
	key := study.SweepConcurrency
	if w.Sweep != nil {
		key = w.Sweep.Key
	}
	if m, ok := lg.Block.Metrics[key]; ok {
		return m.Raw, fmt.Sprintf("the result block (%s:%d)", lg.From, m.Line)
	}
	if a, ok := lg.info.args[key]; ok {
		return a.value, a.where
	}
	return "", ""
}

func loadKey(prefix string) string {
	if prefix == "rps" {
		return study.SweepRate
	}
	return study.SweepConcurrency
}

func points(sw *study.Sweep) string {
	var pts []string
	for _, p := range sw.Points {
		pts = append(pts, p.Raw)
	}
	return strings.Join(pts, ", ")
}

// FileName is where the log goes in the run folder: its workload, load
// and repeat, as the loader reads them, under history/<version>/ for an
// earlier measurement.
func (lg *Log) FileName() string {
	name := lg.Workload
	if lg.Point != nil {
		name += "." + lg.prefix + lg.Point.Raw
	}
	if lg.Repeat > 0 {
		name += ".run-" + strconv.Itoa(lg.Repeat)
	}
	name += study.LogSuffix
	if lg.History != "" {
		name = study.HistoryDir + "/" + lg.History + "/" + name
	}
	return name
}

// series is a log's file name without its repeat: the logs that are
// repeats of one measurement share it.
func (lg *Log) series() string {
	c := *lg
	c.Repeat = 0
	return c.FileName()
}

// checkRepeats fails when the logs of one measurement are both a plain
// log and repeats, or are repeats not numbered from 1 without gaps, as
// the loader would report once they are written.
func checkRepeats(logs []Log) error {
	bySeries := map[string][]*Log{}
	var order []string
	for i := range logs {
		k := logs[i].series()
		if bySeries[k] == nil {
			order = append(order, k)
		}
		bySeries[k] = append(bySeries[k], &logs[i])
	}
	for _, k := range order {
		lgs := bySeries[k]
		sort.SliceStable(lgs, func(i, j int) bool { return lgs[i].Repeat < lgs[j].Repeat })
		what := lgs[0].what()
		if lgs[0].Repeat == 0 && len(lgs) == 1 {
			continue // a single measurement
		}
		if lgs[0].Repeat == 0 {
			other := lgs[1]
			if other.Repeat == 0 {
				return fmt.Errorf("%s and %s both measured %s: a run has one log of it; to add them as repeats, name them %s, %s, ... (numbered from 1), or put the other in another run", lgs[0].From, other.From, what, numbered(k, 1), numbered(k, 2))
			}
			return fmt.Errorf("%s is a single measurement of %s, but %s is a repeat of it: name %s %s, or leave it out", lgs[0].From, what, other.From, lgs[0].From, path.Base(numbered(k, 1)))
		}
		for i, lg := range lgs {
			if i > 0 && lg.Repeat == lgs[i-1].Repeat {
				return fmt.Errorf("%s and %s are both repeat %d of %s: number the repeats 1, 2, ... once each", lgs[i-1].From, lg.From, lg.Repeat, what)
			}
			if lg.Repeat != i+1 {
				return fmt.Errorf("the repeats of %s are numbered from 1 without gaps, but %s is missing before %s: rename the files in order", what, path.Base(numbered(k, i+1)), lg.From)
			}
		}
	}
	return nil
}

// what names the measurement a log holds, in messages: "workload chat",
// "workload chat at c16", "workload chat on v0.10.1".
func (lg *Log) what() string {
	s := "workload " + lg.Workload
	if lg.Point != nil {
		s += " at " + lg.prefix + lg.Point.Raw
	}
	if lg.History != "" {
		s += " on " + lg.History
	}
	return s
}

// numbered is a series' file name with repeat n.
func numbered(series string, n int) string {
	return strings.TrimSuffix(series, study.LogSuffix) + ".run-" + strconv.Itoa(n) + study.LogSuffix
}
