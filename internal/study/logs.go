package study

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/safefs"
)

// pointName is a log's file name, without its suffix, that names a load:
// <workload>.c<N> or <workload>.rps<R>.
var pointName = regexp.MustCompile(`^(.+)\.(c|rps)([0-9]+(?:\.[0-9]+)?)$`)

// logName splits a log's file name, without its suffix, into the workload
// it holds and the load it names: "chat" is workload chat, "chat.c16"
// chat at concurrency 16, "chat.rps0.5" chat at 0.5 requests per second.
// prefix is "c", "rps" or, for a name without a load, empty; ok is false
// when the name holds no workload of the study.
func logName(stem string, workloads map[string]int) (workload, prefix, load string, ok bool) {
	if _, ok := workloads[stem]; ok {
		return stem, "", "", true
	}
	if m := pointName.FindStringSubmatch(stem); m != nil {
		if _, ok := workloads[m[1]]; ok {
			return m[1], m[2], m[3], true
		}
	}
	return stem, "", "", false
}

// logPoint is the sweep point a log's file name names, or nil with a
// problem when the workload has no such point.
func (l *loader) logPoint(file string, w *Workload, prefix, load string) *SweepPoint {
	sw := w.Sweep
	if sw == nil {
		l.problem(Pos{file, 0}, "the file name gives a load (%s%s), but workload %s has no sweep: name the log %s%s, or declare the loads in %s with sweep: {%s: [...]}", prefix, load, w.ID, w.ID, path.Ext(file), w.Pos.File, SweepConcurrency)
		return nil
	}
	v, ok := sweepLoad(sw.Key, load)
	if prefix != sw.Prefix() || !ok {
		l.problem(Pos{file, 0}, "workload %s sweeps %s: name its logs %s.%s<load>%s; %s", w.ID, sw.Key, w.ID, sw.Prefix(), path.Ext(file), loadHint(sw.Key))
		return nil
	}
	if !sw.Has(v) {
		var pts []string
		for _, p := range sw.Points {
			pts = append(pts, p.Raw)
		}
		l.problem(Pos{file, 0}, "load %s is not a point of the sweep of workload %s (%s:%d lists %s): add it there, or rename the log", load, w.ID, sw.Pos.File, sw.Pos.Line, strings.Join(pts, ", "))
		return nil
	}
	return &SweepPoint{Value: v, Raw: load}
}

// pointSuffix writes a log's load after its workload: " at c16".
func pointSuffix(prefix, load string) string {
	if prefix == "" {
		return ""
	}
	return " at " + prefix + load
}

// logSet is what the logs of one folder read so far hold, to find two
// logs of one measurement.
type logSet struct {
	names   map[logKey]string // series (workload, or workload and load) and repeat -> the log file name
	repeats map[string]int    // series -> logs read for it
	plain   map[string]string // workload -> a log named after it alone
	point   map[string]string // workload -> its first log of one load
	loads   map[string]string // series of one load -> how problems name it: "workload chat at c16"
}

func newLogSet() *logSet {
	return &logSet{names: map[logKey]string{}, repeats: map[string]int{}, plain: map[string]string{}, point: map[string]string{}, loads: map[string]string{}}
}

// what names a series in a problem: "workload chat", "workload chat at c16".
func (s *logSet) what(series string) string {
	if w := s.loads[series]; w != "" {
		return w
	}
	return "workload " + series
}

// readLog reads the log file e of the folder dir (shown as shown) as the
// result of the workload its name gives, the same way for a run's own logs
// and for those of its history. It returns no log for a file that gives no
// result: a problem, or a server's error, which it returns as failure.
func (l *loader) readLog(s *Study, dir, shown string, e fs.DirEntry, workloads map[string]int, logs *logSet) (lg *Log, failure string, err error) {
	if l.noLogs {
		return nil, "", nil
	}
	name := e.Name()
	file := path.Join(shown, name)
	suffix := path.Ext(name)
	stem, repeat := LogName(strings.TrimSuffix(name, suffix))
	w, prefix, load, ok := logName(stem, workloads)
	if !ok && l.studyRead {
		l.problem(Pos{file, 0}, "log %q names no workload of the study; name a log <workload-id>%s (or <workload-id>%s for a --save-result JSON, <workload-id>.run-<n>%s for the n-th repeat, <workload-id>.c<N>%s for a load of a sweep), with a workload id of %s", name, LogSuffix, JSONSuffix, LogSuffix, LogSuffix, s.Pos.File)
		return nil, "", nil
	}
	var point *SweepPoint
	var wl *Workload
	if ok {
		wl = &s.Workloads[workloads[w]]
	}
	if prefix != "" {
		if point = l.logPoint(file, wl, prefix, load); point == nil {
			return nil, "", nil
		}
	}
	series := w
	if point != nil {
		series = stem // without its repeat: <workload>.c<N>
	}
	if first, dup := logs.names[logKey{series, repeat}]; dup {
		l.problem(Pos{file, 0}, "both %s and %s hold workload %s%s: a run has one log per workload; keep one of them", first, name, w, pointSuffix(prefix, load))
		return nil, "", nil
	}
	// A sweep has logs of one load each, or logs of a tool that writes
	// every load (guidellm), not both.
	other := logs.plain[w]
	if point == nil {
		other = logs.point[w]
	}
	if other != "" && wl != nil && wl.Sweep != nil {
		l.problem(Pos{file, 0}, "both %s and %s hold the sweep of workload %s: give it one log per load, or one log of a tool that writes every load, not both", other, name, w)
		return nil, "", nil
	}
	if logs.repeats[series]++; logs.repeats[series] > MaxRepeats {
		if logs.repeats[series] == MaxRepeats+1 {
			l.problem(Pos{file, 0}, "%s", tooManyRepeats(series))
		}
		return nil, "", nil
	}
	logs.names[logKey{series, repeat}] = name
	if point != nil {
		logs.loads[series] = "workload " + w + pointSuffix(prefix, load)
	}
	if point == nil && logs.plain[w] == "" {
		logs.plain[w] = name
	} else if point != nil && logs.point[w] == "" {
		logs.point[w] = name
	}
	if info, err := e.Info(); err == nil && info.Size() > MaxLogSize {
		l.problem(Pos{file, 0}, "the log is %d bytes; the limit is %d (64 MiB): keep the benchmark's own output, from its command to its result, and leave server logs out", info.Size(), MaxLogSize)
		return nil, "", nil
	}
	raw, err := fs.ReadFile(l.fsys, path.Join(dir, name))
	if r, _ := safefs.Refused(err); r != nil {
		l.problems = append(l.problems, refusal(err))
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	blocks, perr := benchlog.Parse(file, bytes.NewReader(raw))
	if perr != nil {
		var se *benchlog.SyntaxError
		if errors.As(perr, &se) {
			l.problem(Pos{se.File, se.Line}, "%s", se.Msg)
		} else {
			return nil, "", perr
		}
	}
	if len(blocks) > 0 && blocks[0].Format == benchlog.FormatError {
		// The server failed: the log is the evidence of the run's
		// error, not a result.
		if f := blocks[0].Failure; f != nil {
			failure = strings.TrimSpace(f.Kind + ": " + f.Message)
		}
		return nil, failure, nil
	}
	if len(blocks) > 1 && (point != nil || wl == nil || wl.Sweep == nil) {
		l.problem(Pos{file, blocks[1].Line}, "a second result block (the first is at line %d): a log holds one workload of one run; move this block to the log of its own run or workload", blocks[0].Line)
	}
	return &Log{Workload: w, Point: point, Repeat: repeat, File: file, Raw: raw, Blocks: blocks}, "", nil
}
