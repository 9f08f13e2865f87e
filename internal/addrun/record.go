package addrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/perflab/perflab/internal/shellquote"
	"github.com/perflab/perflab/internal/study"
)

// RecordOptions is what perflab record was given: the run to create (as
// for perflab add, Logs unused) and the benchmark command to run.
type RecordOptions struct {
	Options
	Argv           []string  // the benchmark command and its arguments
	Stdout, Stderr io.Writer // the terminal: the benchmark's output is shown as it comes
	Probe          Probe
	// Grace is how long an interrupted benchmark may take to stop before
	// it is killed (default 10 s).
	Grace time.Duration
}

// PartialError says the benchmark did not finish (or its output is no
// result): the log it wrote so far is kept, marked, at Log, and no run
// was added.
type PartialError struct {
	Log         string
	Why         string
	Interrupted bool
}

func (e *PartialError) Error() string {
	return fmt.Sprintf("%s; its output so far is kept, marked as partial, in %s; no run was added (the folder is hidden from builds and checks: delete it when done)", e.Why, e.Log)
}

// Record runs the benchmark, streams its output to the terminal and into
// a log, and on success adds the run as perflab add would, with what it
// captured about the machine in run.yaml's recorded mapping.
func Record(ctx context.Context, ro RecordOptions) (*Plan, error) {
	o := ro.Options
	if o.Results == "" {
		o.Results = "results"
	}
	if len(ro.Argv) == 0 {
		return nil, errors.New("no benchmark command: give it after --, e.g. perflab record --study S --run R -- vllm bench serve --model M")
	}
	s, err := checkTarget(o)
	if err != nil {
		return nil, err
	}
	if o.Workload != "" && s.Workload(o.Workload) == nil {
		return nil, fmt.Errorf("--workload %q is not a workload of %s: use one of %s, or declare a new workload at the end of workloads: there first (docs/results-format.md)", o.Workload, s.Pos.File, workloadIDs(s))
	}
	if err := checkReproduces(s, o.Reproduces); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(o.Results, ".record-"+o.Study+"-"+o.Run+"-")
	if err != nil {
		return nil, err
	}
	name := "benchmark.log"
	if o.Workload != "" {
		name = o.Workload + ".log"
	}
	logPath := filepath.Join(tmp, name)
	started := ro.Probe.Now().UTC()
	raw, runErr := runBenchmark(ctx, ro, logPath)
	if runErr != nil {
		if _, err := os.Stat(logPath); err != nil { // the command never started
			os.RemoveAll(tmp)
			return nil, runErr
		}
		return nil, markPartial(logPath, runErr)
	}
	o.Logs = []string{logPath}
	p, err := plan(o, s, []Input{{Path: logPath, Raw: raw}})
	if err != nil {
		return nil, markPartial(logPath, &PartialError{Why: "the benchmark finished, but its output is not a run: " + err.Error()})
	}
	p.Dir = filepath.Join(o.Results, o.Study, "runs", o.Run)
	p.tool = "perflab record"
	final := filepath.Join(p.Dir, p.Logs[0].FileName())
	p.retarget(logPath, p.Logs[0].FileName())
	p.Recorded = recordedFields(ro, started, filepath.Base(final), raw)
	if p.RunYAML, err = p.runYAML(); err != nil {
		return nil, err
	}
	if err := write(o, p); err != nil {
		return nil, fmt.Errorf("%w; the benchmark's output is kept in %s", err, logPath)
	}
	os.RemoveAll(tmp) // perflab's own folder; the run now holds the log
	return p, nil
}

// retarget makes the plan's notes name the log by its name in the run
// folder, as perflab add does (inRun), not where it was recorded: a path
// on this machine (an absolute --results) must not reach run.yaml.
func (p *Plan) retarget(from, to string) {
	r := strings.NewReplacer(from, to)
	for i := range p.Logs {
		lg := &p.Logs[i]
		lg.From, lg.Why, lg.LoadFrom = "the output of recorded.benchmark_command", r.Replace(lg.Why), r.Replace(lg.LoadFrom)
	}
	for i := range p.Guesses {
		p.Guesses[i].From = r.Replace(p.Guesses[i].From)
	}
	p.ModelOf = r.Replace(p.ModelOf)
}

// recordedFields is what perflab record captured, and what it could not.
func recordedFields(ro RecordOptions, started time.Time, logName string, raw []byte) []Field {
	fields := []Field{{Key: "benchmark_command", Value: shellquote.Join(ro.Argv), From: "the command perflab record ran"},
		engineVersionField(logName, raw)}
	fields = append(fields, ro.Probe.gpuFields()...)
	host := Field{Key: "host"}
	if h, err := ro.Probe.Hostname(); err == nil && h != "" {
		host.Value, host.From = h, "the host name"
	} else {
		host.Missing = "the system gave no host name"
	}
	fields = append(fields, host, Field{Key: "date", Value: started.Format(time.RFC3339), From: "the clock when the benchmark started"})
	v := Field{Key: "perflab_version", Value: ro.Probe.Version, From: "the perflab binary"}
	if v.Value == "" {
		v.Missing = "this perflab binary carries no build information"
	}
	return append(fields, v)
}

// checkTarget validates the ids and loads the study; the run must not exist.
func checkTarget(o Options) (*study.Study, error) {
	if err := checkIDs(o); err != nil {
		return nil, err
	}
	s, err := loadStudy(o.Results, o.Study)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(o.Results, o.Study, "runs", o.Run)
	if _, err := os.Lstat(dir); err == nil {
		return nil, fmt.Errorf("%s already exists: perflab record never overwrites a run; choose another --run", dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return s, nil
}

// runBenchmark runs the command with its output going both to the
// terminal and, byte for byte as it arrives (stdout and stderr in one
// stream, as 2>&1 would), to the log. An interrupt (ctx) is passed on to
// the benchmark, which is killed if it does not stop within the grace.
func runBenchmark(ctx context.Context, ro RecordOptions, logPath string) ([]byte, error) {
	cmd := exec.Command(ro.Argv[0], ro.Argv[1:]...)
	ownGroup(cmd)
	cmd.WaitDelay = time.Second // after the benchmark exits, for output its children still hold
	f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	lw := &logWriter{f: f}
	cmd.Stdout = io.MultiWriter(lw, orDiscard(ro.Stdout))
	cmd.Stderr = io.MultiWriter(lw, orDiscard(ro.Stderr))
	if err := cmd.Start(); err != nil {
		f.Close()
		os.Remove(logPath)
		return nil, fmt.Errorf("starting the benchmark %s: %w (nothing was recorded)", shellquote.Quote(ro.Argv[0]), err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
	interrupted := false
	select {
	case waitErr = <-done:
	case <-ctx.Done():
		interrupted = true
		interruptGroup(cmd)
		grace := ro.Grace
		if grace == 0 {
			grace = 10 * time.Second
		}
		select {
		case waitErr = <-done:
		case <-time.After(grace):
			killGroup(cmd)
			waitErr = <-done
		}
	}
	closeErr := f.Close()
	switch {
	case interrupted:
		return nil, &PartialError{Why: "the benchmark was interrupted", Interrupted: true}
	case waitErr != nil:
		return nil, &PartialError{Why: "the benchmark failed (" + waitErr.Error() + ")"}
	case lw.err != nil:
		return nil, &PartialError{Why: "writing the log failed: " + lw.err.Error()}
	case closeErr != nil:
		return nil, &PartialError{Why: "writing the log failed: " + closeErr.Error()}
	}
	return os.ReadFile(logPath)
}

// markPartial appends a line saying why the log is partial, after the
// benchmark's own bytes, and returns the error with the log's path.
func markPartial(logPath string, err error) error {
	var pe *PartialError
	if !errors.As(err, &pe) {
		pe = &PartialError{Why: err.Error()}
	}
	pe.Log = logPath
	f, ferr := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND, 0)
	if ferr != nil {
		return pe
	}
	defer f.Close()
	lead := ""
	if info, err := f.Stat(); err == nil && info.Size() > 0 {
		last := make([]byte, 1)
		if r, err := os.Open(logPath); err == nil {
			if _, err := r.ReadAt(last, info.Size()-1); err == nil && last[0] != '\n' {
				lead = "\n"
			}
			r.Close()
		}
	}
	fmt.Fprintf(f, "%s# perflab record: PARTIAL LOG: %s\n", lead, shellquote.Comment(pe.Why))
	return pe
}

// logWriter writes both output streams to the log, one write at a time.
// A failed write is remembered, not returned, so the terminal keeps
// showing the benchmark.
type logWriter struct {
	mu  sync.Mutex
	f   *os.File
	err error
}

func (w *logWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		_, w.err = w.f.Write(b)
	}
	return len(b), nil
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
