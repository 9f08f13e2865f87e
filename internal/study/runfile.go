package study

import (
	"errors"
	"io/fs"
	"math"
	"path"
	"sort"
	"strconv"

	"github.com/perflab/perflab/internal/safefs"
	"gopkg.in/yaml.v3"
)

func (l *loader) runs(s *Study) error {
	entries, err := fs.ReadDir(l.fsys, runsDir)
	if errors.Is(err, fs.ErrNotExist) && s.Article() {
		return nil // an article has no runs
	}
	if errors.Is(err, fs.ErrNotExist) {
		l.problem(s.Pos, "study has no %s/ folder: add one folder per run (see docs/results-format.md)", runsDir)
		return nil
	}
	if r, _ := safefs.Refused(err); r != nil {
		l.problems = append(l.problems, refusal(err))
		return nil
	}
	if err != nil {
		return err
	}
	workloads := map[string]int{}
	for i, w := range s.Workloads {
		workloads[w.ID] = i
	}
	for _, e := range entries {
		if err := safefs.Check(path.Join(l.dir, runsDir, e.Name()), e.Type()); err != nil {
			l.problems = append(l.problems, refusal(err))
			continue
		}
		if !e.IsDir() {
			l.problem(Pos{path.Join(l.dir, runsDir, e.Name()), 0}, "unexpected file in %s/: each run is a folder", runsDir)
			continue
		}
		if l.noLogs && !l.mayHaveHistory(e.Name()) {
			continue // LoadMeta wants the runs with a history only
		}
		if err := l.run(s, e.Name(), workloads); err != nil {
			return err
		}
	}
	sort.Slice(s.Runs, func(i, j int) bool { return s.Runs[i].ID < s.Runs[j].ID })
	return nil
}

// mayHaveHistory is false when run id has no history folder, known by one
// look instead of a listing of the run's folder.
func (l *loader) mayHaveHistory(id string) bool {
	_, err := fs.Stat(l.fsys, path.Join(runsDir, id, HistoryDir))
	return !errors.Is(err, fs.ErrNotExist)
}

func (l *loader) run(s *Study, id string, workloads map[string]int) error {
	dir := path.Join(runsDir, id)
	shown := path.Join(l.dir, dir)
	r := &Run{ID: id, Pos: Pos{path.Join(shown, RunFile), 1}}
	if l.folders == nil {
		l.folders = map[string]bool{}
	}
	l.folders[id] = true
	if !idPattern.MatchString(id) {
		l.problem(Pos{shown, 0}, "run folder name %q is not a valid id: use lower-case letters, digits, '.', '_' and '-'", id)
	} else if msg := idProblem("run", id); msg != "" {
		l.problem(Pos{shown, 0}, "%s", msg)
	}
	entries, ok, err := l.readDir(dir)
	if !ok {
		return err
	}
	hasMeta, metaRefused := false, false
	var failure string // the first error a log printed instead of a result
	logs := newLogSet()
	for _, e := range entries {
		name := e.Name()
		file := path.Join(shown, name)
		suffix := path.Ext(name)
		if err := safefs.Check(file, e.Type()); err != nil {
			l.problems = append(l.problems, refusal(err))
			metaRefused = metaRefused || name == RunFile
			continue
		}
		switch {
		case name == RunFile:
			hasMeta = true
		case name == AccuracyFile && !e.IsDir():
			if err := l.readAccuracy(r, e, path.Join(dir, name), file); err != nil {
				return err
			}
		case name == HistoryDir && e.IsDir():
			if err := l.history(s, r, path.Join(dir, name), file, workloads); err != nil {
				return err
			}
		case isResultSuffix(suffix) && !e.IsDir():
			lg, f, err := l.readLog(s, dir, shown, e, workloads, logs)
			if err != nil {
				return err
			}
			if failure == "" {
				failure = f
			}
			if lg != nil {
				r.Logs = append(r.Logs, *lg)
			}
		default:
			l.problem(Pos{file, 0}, "unexpected file in a run folder: expected %s and <workload-id>%s files (or <workload-id>%s, a saved JSON result, or <workload-id>%s, a Benchmark Report)", RunFile, LogSuffix, JSONSuffix, YAMLSuffix)
		}
	}
	sort.SliceStable(r.Logs, func(i, j int) bool {
		a, b := &r.Logs[i], &r.Logs[j]
		if a.Workload != b.Workload {
			return workloads[a.Workload] < workloads[b.Workload]
		}
		if pa, pb := a.Point != nil, b.Point != nil; pa != pb || pa && a.Point.Value != b.Point.Value {
			return pb && (!pa || a.Point.Value < b.Point.Value) // the plain log first, then by load
		}
		return a.Repeat < b.Repeat
	})
	l.repeatProblems(shown, logs)
	if metaRefused {
		return nil
	}
	if !hasMeta {
		l.problem(Pos{shown, 0}, "run folder has no %s: add one with engine, command and gpus (see docs/results-format.md)", RunFile)
		return nil
	}
	if l.noLogs && len(r.History) == 0 {
		s.Runs = append(s.Runs, r) // LoadMeta wants a run's engine for its history only
		return nil
	}
	data, err := l.readMeta(path.Join(dir, RunFile))
	if r, _ := safefs.Refused(err); r != nil {
		l.problems = append(l.problems, refusal(err))
		return nil
	}
	if err != nil {
		return err
	}
	if n := l.parseYAML(r.Pos.File, data); n != nil {
		l.runMeta(r, n, id, failure)
	}
	s.Runs = append(s.Runs, r)
	return nil
}

// price reads a price's gpu_hour and currency; nil when it is not a
// positive number (a problem says so).
func (l *loader) price(m *mapping, at Pos) *Price {
	p := &Price{Raw: m.str("gpu_hour", "price", true), Currency: m.str("currency", "price", true), Pos: at}
	v, err := strconv.ParseFloat(p.Raw, 64)
	if err != nil {
		v = math.NaN()
	}
	if msg := priceProblem(p.Raw, v); msg != "" {
		if p.Raw != "" {
			l.problem(m.pos("gpu_hour"), "%s", msg)
		}
		return nil
	}
	p.PerGPUHour = v
	return p
}

// runMeta reads a run's run.yaml; failure is the first error its logs
// printed, the run's error when run.yaml states none.
func (l *loader) runMeta(r *Run, n *yaml.Node, id, failure string) {
	m := l.mapping(r.Pos.File, n, "run", "name", "engine", "command", "command_derived", "parameters", "gpus", "error", "source", "recorded", "reproduces")
	r.Name = m.str("name", "run", true)
	r.Engine = m.str("engine", "run", true)
	r.Command = m.str("command", "run", true)
	r.CommandDerived = m.boolean("command_derived", "run")
	r.Parameters = m.str("parameters", "run", false)
	r.Source = m.str("source", "run", false)
	r.GPUs = m.gpuCount("gpus", "run")
	r.Error = m.str("error", "run", false)
	r.Recorded = l.recorded(m)
	r.Reproduces, r.ReproducesLine = m.str("reproduces", "run", false), m.pos("reproduces").Line
	if r.Error == "" {
		r.Error = failure
	}
	r.EngineLine, r.CommandLine, r.GPUsLine = m.pos("engine").Line, m.pos("command").Line, m.pos("gpus").Line
	r.NameLine = m.pos("name").Line
	if r.Failed() && len(r.Logs) > 0 {
		l.problem(m.pos("error"), "run %s has an error and also result logs: a failed run has no result; remove the error or the logs", id)
	}
	if !r.Failed() && len(r.Logs) == 0 && l.studyRead {
		l.problem(r.Pos, "run %s has no <workload-id>%s file and no error: add its logs, or the error it printed", id, LogSuffix)
	}
}

// readAccuracy reads a run's accuracy file: lm_eval's scores.
func (l *loader) readAccuracy(r *Run, e fs.DirEntry, name, file string) error {
	if info, err := e.Info(); err == nil && info.Size() > MaxFileSize {
		l.problem(Pos{file, 0}, "%s is %d bytes; the limit is %d: keep the results file lm_eval writes, without samples", AccuracyFile, info.Size(), MaxFileSize)
		return nil
	}
	raw, err := l.readMeta(name)
	if err != nil {
		return err
	}
	scores, perr := parseAccuracy(file, raw)
	if perr != nil {
		l.problem(Pos{file, 1}, "%s: %v", AccuracyFile, perr)
	}
	r.Accuracy = scores
	return nil
}
