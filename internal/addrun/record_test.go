package addrun

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// noGPU is a machine without any GPU tool, a fixed clock and host.
func noGPU(tools ...string) Probe {
	return Probe{
		LookPath: func(f string) (string, error) {
			for _, t := range tools {
				if t == f {
					return "/usr/bin/" + f, nil
				}
			}
			return "", exec.ErrNotFound
		},
		Output:   func(string, ...string) ([]byte, error) { return nil, errors.New("not run") },
		Hostname: func() (string, error) { return "bench-1", nil },
		Now:      func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600)) },
		Version:  "v1.2.3",
	}
}

func TestRecordMarksWhatItCouldNotCapture(t *testing.T) {
	results := tree(t)
	bench := writeTest(t, filepath.Join(t.TempDir(), "out.txt"), "$ vllm serve example-org/Example-8B --tensor-parallel-size 2\n"+random1kBlock)
	var term strings.Builder
	p, err := Record(context.Background(), RecordOptions{
		Options: Options{Results: results, Study: "ex", Run: "rerun", Reproduces: "vllm"},
		Argv:    []string{"cat", bench}, Stdout: &term, Probe: noGPU(),
	})
	if err != nil {
		t.Fatal(err)
	}
	y := string(p.RunYAML)
	// results is an absolute temporary folder: no path on this machine
	// may reach run.yaml but the command the contributor ran.
	if strings.Contains(strings.ReplaceAll(y, "cat "+bench, ""), results) {
		t.Errorf("run.yaml names the local folder %s:\n%s", results, y)
	}
	for _, want := range []string{
		"command: vllm serve example-org/Example-8B --tensor-parallel-size 2 # guessed from the serving command in random-1k.log:1: check",
		"reproduces: vllm\n",
		"engine_version: null # not captured: neither the benchmark nor the server printed it",
		"gpu: null # not captured: no nvidia-smi, rocm-smi or npu-smi on PATH",
		"gpu_count: null # not captured",
		"host: bench-1 # captured",
		"date: \"2026-01-02T02:04:05Z\"",
		"perflab_version: v1.2.3 # captured",
	} {
		if !strings.Contains(strings.ReplaceAll(y, filepath.ToSlash(results), "results"), want) {
			t.Errorf("run.yaml lacks %q:\n%s", want, y)
		}
	}
	if !strings.Contains(term.String(), "Successful requests:") {
		t.Errorf("the output was not shown: %q", term.String())
	}
	// The run loads: null is read as not captured, reproduces as written.
	s, err := loadStudy(results, "ex")
	if err != nil {
		t.Fatal(err)
	}
	r := s.Run("rerun")
	if r == nil || r.Recorded == nil || r.Recorded.GPU != "" || r.Recorded.GPUCount != 0 || r.Recorded.Host != "bench-1" || r.Reproduces != "vllm" {
		t.Errorf("loaded run = %+v", r)
	}
	// Another vendor's tool is named, not read.
	if f := noGPU("rocm-smi").gpuFields(); f[0].Missing != "rocm-smi is present, but perflab reads only nvidia-smi: fill in by hand" {
		t.Errorf("rocm-smi: %+v", f[0])
	}
	// A reproduction of a reproduction, or of no run, is refused up front.
	for _, of := range []string{"rerun", "nope"} {
		_, err := Record(context.Background(), RecordOptions{Options: Options{Results: results, Study: "ex", Run: "again", Reproduces: of}, Argv: []string{"true"}, Probe: noGPU()})
		if err == nil || !strings.Contains(err.Error(), "--reproduces") {
			t.Errorf("--reproduces %s: %v", of, err)
		}
	}
}

// lineWatcher calls f once the output shows want.
type lineWatcher struct {
	mu   sync.Mutex
	text strings.Builder
	want string
	f    func()
}

func (w *lineWatcher) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.text.Write(b)
	if w.f != nil && strings.Contains(w.text.String(), w.want) {
		w.f()
		w.f = nil
	}
	return len(b), nil
}

func TestRecordInterrupted(t *testing.T) {
	results := tree(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The benchmark prints a progress line, then would run for a minute;
	// the interrupt comes once the line is on the terminal.
	term := &lineWatcher{want: "10/100", f: cancel}
	start := time.Now()
	_, err := Record(ctx, RecordOptions{
		Options: Options{Results: results, Study: "ex", Run: "cut"},
		Argv:    []string{"sh", "-c", "echo ' 10%| 10/100'; sleep 60"}, Stdout: term, Probe: noGPU(), Grace: 2 * time.Second,
	})
	var pe *PartialError
	if !errors.As(err, &pe) || !pe.Interrupted {
		t.Fatalf("err = %v, want an interrupted PartialError", err)
	}
	if time.Since(start) > 30*time.Second {
		t.Errorf("the interrupted benchmark ran on")
	}
	got, rerr := os.ReadFile(pe.Log)
	if rerr != nil || string(got) != " 10%| 10/100\n# perflab record: PARTIAL LOG: the benchmark was interrupted\n" {
		t.Errorf("partial log %s = %q (%v)", pe.Log, got, rerr)
	}
	if _, err := os.Stat(filepath.Join(results, "ex", "runs", "cut")); err == nil {
		t.Error("an interrupted benchmark left a run")
	}
	if !strings.HasPrefix(filepath.Base(filepath.Dir(pe.Log)), ".record-ex-cut-") {
		t.Errorf("the partial log is not in a hidden folder: %s", pe.Log)
	}
}
