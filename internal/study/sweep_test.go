package study_test

import (
	"os"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// sweepFiles is the minimal valid study with random-1k swept over the
// given sweep (a line of YAML under the workload, at line 21) and one log
// per named file instead of random-1k.log.
func sweepFiles(sweep string, logs ...string) map[string]string {
	files := validFiles()
	files["study.yaml"] = strings.Replace(studyYAML, "    output_len: 100\n", "    output_len: 100\n"+sweep, 1)
	delete(files, "runs/vllm/random-1k.log")
	for _, name := range logs {
		files["runs/vllm/"+name] = vllmBlock("990.00")
	}
	return files
}

func loadSweep(t *testing.T, files map[string]string) (*study.Study, []string) {
	t.Helper()
	s, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Error())
	}
	return s, got
}

func TestLoadSweepPoints(t *testing.T) {
	cases := []struct {
		name, sweep string
		logs        []string
		key         string
		line        int      // of the load's key
		points      []string // the points of the logs, in the order loaded
	}{
		{"concurrency", "    sweep: {max_concurrency: [1, 4, 16]}\n",
			[]string{"random-1k.c16.log", "random-1k.c4.json", "random-1k.c1.log"}, study.SweepConcurrency, 21, []string{"1", "4", "16"}},
		{"rate", "    sweep:\n      request_rate: [0.5, 2, 10]\n",
			[]string{"random-1k.rps10.log", "random-1k.rps0.5.log", "random-1k.rps2.log"}, study.SweepRate, 22, []string{"0.5", "2", "10"}},
		{"missing point is not a load problem", "    sweep: {max_concurrency: [1, 4, 16]}\n",
			[]string{"random-1k.c4.log"}, study.SweepConcurrency, 21, []string{"4"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, problems := loadSweep(t, sweepFiles(c.sweep, c.logs...))
			if len(problems) > 0 {
				t.Fatalf("problems: %v", problems)
			}
			sw := s.Workload("random-1k").Sweep
			if sw == nil || sw.Key != c.key || sw.Pos.Line != c.line {
				t.Fatalf("sweep = %+v, want key %s at line %d", sw, c.key, c.line)
			}
			var got []string
			for _, lg := range s.Run("vllm").Logs {
				if lg.Workload != "random-1k" {
					continue
				}
				if lg.Point == nil {
					t.Fatalf("%s: no point", lg.File)
				}
				got = append(got, lg.Point.Raw)
			}
			if strings.Join(got, " ") != strings.Join(c.points, " ") {
				t.Errorf("points %v, want %v", got, c.points)
			}
			if s.Workload("sharegpt").Sweep != nil {
				t.Error("sharegpt has a sweep")
			}
		})
	}
}

// A guidellm sweep in the workload's plain log gives every point: its
// several blocks are not a problem there.
func TestLoadSweepToolLog(t *testing.T) {
	raw, err := os.ReadFile("../benchlog/testdata/guidellm_v02_sweep.txt")
	if err != nil {
		t.Fatal(err)
	}
	files := sweepFiles("    sweep: {request_rate: [7.13, 12.72, 18.3]}\n")
	files["runs/vllm/random-1k.log"] = string(raw)
	s, problems := loadSweep(t, files)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	for _, lg := range s.Run("vllm").Logs {
		if lg.Workload == "random-1k" && (lg.Point != nil || len(lg.Blocks) != 5) {
			t.Errorf("%s: point %v, %d blocks; want none and 5", lg.File, lg.Point, len(lg.Blocks))
		}
	}
	// Without a sweep, the second block is still one too many.
	files["study.yaml"] = studyYAML
	_, problems = loadSweep(t, files)
	if len(problems) != 1 || !strings.Contains(problems[0], "a second result block") {
		t.Errorf("without a sweep: %v", problems)
	}
}

func TestLoadSweepProblems(t *testing.T) {
	const conc = "    sweep: {max_concurrency: [1, 4, 16]}\n"
	cases := []struct {
		name, sweep string
		logs        []string
		at, msg     string
	}{
		{"unknown key", "    sweep: {concurrency: [1, 4]}\n", nil,
			"study.yaml:21", `unknown field "concurrency"; known fields are max_concurrency, request_rate`},
		{"two keys", "    sweep: {max_concurrency: [1], request_rate: [1]}\n", nil,
			"study.yaml:21", "give one of max_concurrency or request_rate"},
		{"not a mapping", "    sweep: [1, 4]\n", nil,
			"study.yaml:21", "give one of max_concurrency or request_rate"},
		{"not a list", "    sweep:\n      max_concurrency: 4\n", nil,
			"study.yaml:22", `field "max_concurrency" must be a list`},
		{"empty", "    sweep: {max_concurrency: []}\n", nil,
			"study.yaml:21", "lists 0 loads; give from 1 to 64"},
		{"fractional concurrency", "    sweep:\n      max_concurrency:\n        - 1\n        - 1.5\n", nil,
			"study.yaml:24", `"1.5" is not a load; a concurrency is a positive whole number`},
		{"zero rate", "    sweep: {request_rate: [0, 1]}\n", nil,
			"study.yaml:21", `"0" is not a load; a request rate is a positive number`},
		{"a string", "    sweep: {request_rate: [\"1\"]}\n", nil,
			"study.yaml:21", `"1" is not a load`},
		{"not increasing", "    sweep:\n      max_concurrency:\n        - 4\n        - 4\n", nil,
			"study.yaml:24", "4 comes after 4; list the loads once each, in increasing order"},
		{"with max_concurrency", "    max_concurrency: 8\n" + conc, nil,
			"study.yaml:21", "max_concurrency and a sweep of max_concurrency both set the concurrency"},
		{"undeclared point", conc, []string{"random-1k.c1.log", "random-1k.c8.log"},
			"runs/vllm/random-1k.c8.log:0", "load 8 is not a point of the sweep of workload random-1k (results/x/study.yaml:21 lists 1, 4, 16)"},
		{"rate name on a concurrency sweep", conc, []string{"random-1k.rps1.log"},
			"runs/vllm/random-1k.rps1.log:0", "workload random-1k sweeps max_concurrency: name its logs random-1k.c<load>.log"},
		{"fractional concurrency name", conc, []string{"random-1k.c1.5.log"},
			"runs/vllm/random-1k.c1.5.log:0", "a concurrency is a positive whole number"},
		{"point without a sweep", "", []string{"random-1k.c4.log"},
			"runs/vllm/random-1k.c4.log:0", "the file name gives a load (c4), but workload random-1k has no sweep"},
		{"two logs of a point", conc, []string{"random-1k.c4.json", "random-1k.c4.log"},
			"runs/vllm/random-1k.c4.log:0", "both random-1k.c4.json and random-1k.c4.log hold workload random-1k at c4"},
		{"plain and point logs", conc, []string{"random-1k.c4.log", "random-1k.log"},
			"runs/vllm/random-1k.log:0", "both random-1k.c4.log and random-1k.log hold the sweep of workload random-1k"},
		{"no workload", conc, []string{"chat.c4.log"},
			"runs/vllm/chat.c4.log:0", `log "chat.c4.log" names no workload of the study`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, problems := loadSweep(t, sweepFiles(c.sweep, c.logs...))
			want := "results/x/" + c.at + ": "
			if len(problems) != 1 || !strings.HasPrefix(problems[0], want) || !strings.Contains(problems[0], c.msg) {
				t.Errorf("problems:\n%s\nwant only %s...%s", strings.Join(problems, "\n"), want, c.msg)
			}
		})
	}
}

func TestLoadSweepNotMain(t *testing.T) {
	files := sweepFiles("    main: true\n    sweep: {max_concurrency: [1, 4, 16]}\n", "random-1k.c1.log")
	files["study.yaml"] = strings.Replace(files["study.yaml"], "    dataset: sharegpt\n    main: true\n", "    dataset: sharegpt\n", 1)
	_, problems := loadSweep(t, files)
	const want = "results/x/study.yaml:20: workload random-1k: the main workload cannot be a sweep"
	if len(problems) != 1 || !strings.HasPrefix(problems[0], want) {
		t.Errorf("problems:\n%s\nwant only %s", strings.Join(problems, "\n"), want)
	}
}
