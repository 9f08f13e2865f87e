package study_test

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestNumbersInRange: counts must be positive and bounded, their product
// must not overflow, and a price must be finite and plausible; each is an
// error on its line, and the value is not used.
func TestNumbersInRange(t *testing.T) {
	const sy, rv = "study.yaml", "runs/vllm/run.yaml"
	cases := []struct {
		name  string
		edits []edit
		at    string
		msg   string
	}{
		{"overflowing GPUs", []edit{replace(sy, "  gpus_per_node: 8\n  nodes: 1\n", "  gpus_per_node: 4294967296\n  nodes: 4294967296\n")},
			"study.yaml:4", `hardware: field "gpus_per_node" is 4294967296; the limit is 65536`},
		{"GPUs product", []edit{replace(sy, "  gpus_per_node: 8\n  nodes: 1\n", "  gpus_per_node: 65536\n  nodes: 65536\n")},
			"study.yaml:3", "gpus_per_node x nodes is 65536 x 65536 = 4294967296 GPUs; the limit is 65536"},
		{"negative concurrency", []edit{replace(sy, "    main: true\n", "    main: true\n    max_concurrency: -5\n")},
			"study.yaml:17", `workload: field "max_concurrency" must be greater than zero`},
		{"huge prompt count", []edit{replace(sy, "    output_len: 100\n", "    output_len: 100\n    num_prompts: 9223372036854775807\n")},
			"study.yaml:21", `workload: field "num_prompts" is 9223372036854775807; the limit is 1000000000`},
		{"huge run GPUs", []edit{replace(rv, "gpus: 1\n", "gpus: 100000\n")},
			"runs/vllm/run.yaml:4", `run: field "gpus" is 100000; the limit is 65536`},
		{"price 1e308", []edit{replace(sy, "objective: throughput\n", "objective: throughput\nprice:\n  gpu_hour: 1e308\n  currency: USD\n")},
			"study.yaml:8", `price: gpu_hour "1e308" is more than 1e+06`},
		{"price inf", []edit{replace(sy, "objective: throughput\n", "objective: throughput\nprice:\n  gpu_hour: .inf\n  currency: USD\n")},
			"study.yaml:8", `".inf" is infinity to YAML: write a finite number`},
		{"price NaN", []edit{replace(sy, "objective: throughput\n", "objective: throughput\nprice:\n  gpu_hour: NaN\n  currency: USD\n")},
			"study.yaml:8", `price: gpu_hour "NaN" must be a positive number`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := validFiles()
			for _, e := range c.edits {
				if !strings.Contains(files[e.file], e.old) {
					t.Fatalf("%s has no %q", e.file, e.old)
				}
				files[e.file] = strings.Replace(files[e.file], e.old, e.new, 1)
			}
			s, problems, err := study.Load(mapFS(files), "results/x", "x")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			found := false
			for _, p := range problems {
				got = append(got, p.Error())
				found = found || strings.HasPrefix(p.Error(), "results/x/"+c.at+": ") && strings.Contains(p.Msg, c.msg)
			}
			if !found {
				t.Errorf("no problem at %s saying %q among:\n%s", c.at, c.msg, strings.Join(got, "\n"))
			}
			if s.Hardware.GPUs() > study.MaxGPUs || s.Hardware.GPUs() < 0 {
				t.Errorf("hardware of %d GPUs kept", s.Hardware.GPUs())
			}
			if s.Price != nil {
				t.Errorf("price %v kept", s.Price.PerGPUHour)
			}
		})
	}
}
