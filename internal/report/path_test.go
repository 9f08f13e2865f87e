package report

import (
	"math"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// pathStudy is the 235B seed's shape: BF16 TP8, FP8 (which needs expert
// parallelism at TP8), FP8 at TP4 (two replicas), FP8 TP4 EP4, and
// SGLang; each step's reference is the baseline, as the source compared.
func pathStudy(withFP8 bool) *study.Study {
	run := func(id, command string, gpus int, v string) *study.Run {
		r := testRun(id, id, gpus, "sharegpt", v)
		r.Command = command
		return r
	}
	runs := []*study.Run{
		run("tp8", "vllm serve Qwen/Qwen3-235B -tp 8", 8, "3792.50"),
		run("sglang", "python3 -m sglang.launch_server --model-path Qwen/Qwen3-235B --tp 8", 8, "4635.31"),
		run("tp4", "vllm serve Qwen/Qwen3-235B-FP8 -tp 4", 4, "3019.19"),
		run("tp4ep4", "vllm serve Qwen/Qwen3-235B-FP8 -tp 4 --enable-expert-parallel", 4, "2814.47"),
		run("mbt", "vllm serve Qwen/Qwen3-235B-FP8 -tp 4 --max-num-batched-tokens 4096", 4, "3025.05"),
	}
	steps := []study.Step{{ID: "engine", Runs: []string{"tp8", "sglang"}, Reference: "tp8"}}
	if withFP8 {
		runs = append(runs, run("fp8", "vllm serve Qwen/Qwen3-235B-FP8 -tp 8 --enable-expert-parallel", 8, "3740.89"))
		steps = append(steps, study.Step{ID: "quantization", Runs: []string{"fp8"}, Reference: "tp8"})
	} else {
		runs = append(runs, run("awq", "vllm serve Qwen/Qwen3-235B-AWQ -tp 8", 8, "3500.00"))
		steps = append(steps, study.Step{ID: "quantization", Runs: []string{"awq"}, Reference: "tp8"})
	}
	steps = append(steps,
		study.Step{ID: "parallelism", Runs: []string{"tp4", "tp4ep4"}, Reference: "tp8"},
		study.Step{ID: "mbt", Runs: []string{"mbt"}, Reference: "tp4"})
	s := testStudy(study.Throughput, 8, runs...)
	s.Baseline = study.Config{Runs: []string{"tp8"}}
	s.Recommended = study.Config{Runs: []string{"tp4"}}
	s.Steps = steps
	return s
}

// TestPathCreditsEachStep: the path goes baseline -> FP8 -> FP8 TP4, each
// step credited with its change from the configuration before it; the
// changes compound to the whole; the engine and batching steps are off
// the path and compared with their references.
func TestPathCreditsEachStep(t *testing.T) {
	r := Build(pathStudy(true), nil)
	p := r.Path
	if p == nil || !p.Reached || !p.OneAtATime || len(p.Links) != 2 {
		t.Fatalf("path %+v, want two links reaching the recommended configuration", p)
	}
	q, par := p.Links[0], p.Links[1]
	if q.Step.Step.ID != "quantization" || q.From.Run.ID != "tp8" || q.To.Run.ID != "fp8" || !q.Change.Noise {
		t.Errorf("first link %s: %s -> %s, noise %v; want quantization tp8 -> fp8, within noise", q.Step.Step.ID, q.From.Run.ID, q.To.Run.ID, q.Change.Noise)
	}
	// (3019.19 x 2 / 3740.89 - 1) x 100 = +61.4 %, not the +59.2 % against BF16.
	if par.Step.Step.ID != "parallelism" || par.From.Run.ID != "fp8" || par.To.Run.ID != "tp4" ||
		math.Abs(par.Change.Percent-61.42) > 0.01 || par.Change.Noise || !par.Change.Better {
		t.Errorf("second link %s: %s -> %s, %+.2f %%; want parallelism fp8 -> tp4, +61.42 %%", par.Step.Step.ID, par.From.Run.ID, par.To.Run.ID, par.Change.Percent)
	}
	product := (1 + q.Change.Percent/100) * (1 + par.Change.Percent/100)
	if math.Abs(product-(1+p.Whole.Percent/100)) > 1e-9 {
		t.Errorf("the changes compound to %.6f, the whole is %.6f", product, 1+p.Whole.Percent/100)
	}
	// The summary credits parallelism with its own change; the step's
	// comparison with its declared reference (what a claim checks) stays.
	sr := r.StepByID("parallelism")
	if sr.Changed.Run.ID != "fp8" || sr.BestCredit() != par.Change || math.Abs(sr.Change.Percent-59.21) > 0.01 {
		t.Errorf("parallelism: changed %s, credit %+v, change %+.2f %%", sr.Changed.Run.ID, sr.BestCredit(), sr.Change.Percent)
	}
	// Its two alternatives against FP8 are one family.
	if c := sr.Credit["tp4ep4"]; c == nil || c.Family != 2 || c.From.Run != "fp8" {
		t.Errorf("TP4 EP4 credited with %+v, want against fp8 in a family of two", c)
	}
	for _, id := range []string{"engine", "mbt"} {
		sr := r.StepByID(id)
		if sr.Changed == nil || sr.Changed.Run.ID != sr.Step.Reference || sr.BestCredit() != sr.Change {
			t.Errorf("%s: changed %v, want its reference and its own change", id, sr.Changed)
		}
	}
}

// TestPathNotOneAtATime: without an FP8 run, parallelism's run changes
// the weights as well as the parallelism, which is what the quantization
// step is about: the steps were not measured one at a time.
func TestPathNotOneAtATime(t *testing.T) {
	p := Build(pathStudy(false), nil).Path
	if p == nil || len(p.Links) != 1 || p.OneAtATime {
		t.Fatalf("path %+v, want one link, not one at a time", p)
	}
	if l := p.Links[0]; l.Step.Step.ID != "parallelism" || l.Also == nil || l.Also.Step.ID != "quantization" {
		t.Errorf("link %s also covers %v, want quantization", l.Step.Step.ID, l.Also)
	}
}
