package study

import (
	"path"
	"sort"

	"github.com/perflab/perflab/internal/safefs"
)

// HistoryDir is the folder of a run that keeps its earlier measurements:
// runs/<run>/history/<engine-version>/<workload-id>.log, the same
// configuration measured on an older version of its engine.
const HistoryDir = "history"

// HistoryFile optionally describes a version folder of a history: the
// serving command of that measurement, when it differs from the run's.
const HistoryFile = "history.yaml"

// MaxHistory bounds the versions a run's history may hold: each is a
// column of the report.
const MaxHistory = 64

// History is one earlier measurement of a run: the same configuration on
// an older version of its engine, with its logs.
type History struct {
	Version Version // from the folder's name
	Dir     string  // the folder, as shown
	Logs    []Log   // sorted by workload order of the study
	// Command is the serving command of this measurement when it differs
	// from the run's (history.yaml); empty: the run's command.
	Command string
	Pos     Pos // the command's line in history.yaml
}

// Result returns the history's result block for a workload, if any.
func (h *History) Result(workload string) *Log {
	for i := range h.Logs {
		if h.Logs[i].Workload == workload && len(h.Logs[i].Blocks) > 0 {
			return &h.Logs[i]
		}
	}
	return nil
}

// history reads the history folder of run r, dir in the study's file
// system, shown as shown: one folder per earlier engine version, each
// read as a run's logs are, oldest version first.
func (l *loader) history(s *Study, r *Run, dir, shown string, workloads map[string]int) error {
	entries, ok, err := l.readDir(dir)
	if !ok {
		return err
	}
	seen := map[Version]string{}
	for _, e := range entries {
		vshown := path.Join(shown, e.Name())
		if err := safefs.Check(vshown, e.Type()); err != nil {
			l.problems = append(l.problems, refusal(err))
			continue
		}
		if !e.IsDir() {
			l.problem(Pos{vshown, 0}, "unexpected file in %s/: each earlier measurement is a folder named after the engine version it ran on, such as %s/v0.10.1/", HistoryDir, HistoryDir)
			continue
		}
		if len(r.History) == MaxHistory {
			l.problem(Pos{vshown, 0}, "a run keeps at most %d earlier versions in %s/: remove the oldest", MaxHistory, HistoryDir)
			break
		}
		if len(e.Name()) > MaxIDLength {
			l.problem(Pos{vshown, 0}, "history folder name is %d bytes long; the limit is %d: name it after the engine version alone", len(e.Name()), MaxIDLength)
			continue
		}
		v, err := ParseVersion(e.Name())
		if err != nil {
			l.problem(Pos{vshown, 0}, "history folder %q is not an engine version: %v; name it after the version of the engine it ran on", e.Name(), err)
			continue
		}
		v.Raw = e.Name()
		key := v
		key.Raw = ""
		if first, dup := seen[key]; dup {
			l.problem(Pos{vshown, 0}, "history folders %s and %s are the same engine version: keep one of them", first, e.Name())
			continue
		}
		seen[key] = e.Name()
		h := History{Version: v, Dir: vshown}
		if err := l.historyLogs(s, &h, path.Join(dir, e.Name()), workloads); err != nil {
			return err
		}
		r.History = append(r.History, h)
	}
	sort.Slice(r.History, func(i, j int) bool { return r.History[i].Version.Compare(r.History[j].Version) < 0 })
	return nil
}

// historyLogs reads the logs of one version folder of a history.
func (l *loader) historyLogs(s *Study, h *History, dir string, workloads map[string]int) error {
	entries, ok, err := l.readDir(dir)
	if !ok {
		return err
	}
	logs := newLogSet()
	for _, e := range entries {
		file := path.Join(h.Dir, e.Name())
		if err := safefs.Check(file, e.Type()); err != nil {
			l.problems = append(l.problems, refusal(err))
			continue
		}
		if e.Name() == HistoryFile && !e.IsDir() {
			if info, err := e.Info(); err == nil && info.Size() > MaxFileSize {
				l.problems = append(l.problems, tooLarge(file, int(info.Size())))
				continue
			}
			if err := l.historyMeta(h, path.Join(dir, HistoryFile), file); err != nil {
				return err
			}
			continue
		}
		if suffix := path.Ext(e.Name()); e.IsDir() || !isResultSuffix(suffix) {
			l.problem(Pos{file, 0}, "unexpected file in a history folder: expected <workload-id>%s files (or <workload-id>%s, <workload-id>%s) as in the run's own folder, and optionally %s", LogSuffix, JSONSuffix, YAMLSuffix, HistoryFile)
			continue
		}
		lg, failure, err := l.readLog(s, dir, h.Dir, e, workloads, logs)
		if err != nil {
			return err
		}
		if failure != "" {
			l.problem(Pos{file, 0}, "the log holds the server's error (%s), not a result: keep only measurements in %s/", failure, HistoryDir)
		}
		if lg != nil {
			h.Logs = append(h.Logs, *lg)
		}
	}
	if len(h.Logs) == 0 && len(logs.names) == 0 {
		l.problem(Pos{h.Dir, 0}, "history folder has no <workload-id>%s file: add the logs of that version's measurement, or remove the folder", LogSuffix)
	}
	sort.Slice(h.Logs, func(i, j int) bool { return workloads[h.Logs[i].Workload] < workloads[h.Logs[j].Workload] })
	return nil
}

// historyMeta reads a version folder's history.yaml, name in the study's
// file system, shown as file.
func (l *loader) historyMeta(h *History, name, file string) error {
	data, err := l.readMeta(name)
	if r, _ := safefs.Refused(err); r != nil {
		l.problems = append(l.problems, refusal(err))
		return nil
	}
	if err != nil {
		return err
	}
	if n := l.parseYAML(file, data); n != nil {
		m := l.mapping(file, n, "history", "command")
		h.Command = m.str("command", "history", true)
		h.Pos = m.pos("command")
	}
	return nil
}

// historyRefs checks that every version of a run's history is older than
// the engine version its study names, which is that of the run's own logs.
func (l *loader) historyRefs(s *Study) {
	for _, r := range s.Runs {
		if len(r.History) == 0 {
			continue
		}
		e := s.Engine(r.Engine)
		if e == nil {
			continue // reported on its own
		}
		current, err := ParseVersion(e.Version)
		if err != nil {
			l.problem(e.Pos, "engine %s: run %s keeps a history, which is ordered by version, and %v", e.ID, r.ID, err)
			continue
		}
		for _, h := range r.History {
			if h.Version.Compare(current) >= 0 {
				l.problem(Pos{h.Dir, 0}, "history folder %s is not older than %s %s, the version %s gives the run's own logs: a history keeps earlier versions only; move the newest logs to the run's folder and its version to the engine in %s",
					h.Version.Raw, e.Name, e.Version, s.Pos.File, s.Pos.File)
			}
		}
	}
}
