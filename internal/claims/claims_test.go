package claims

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

func TestParsePercent(t *testing.T) {
	tests := []struct {
		in       string
		value    float64
		decimals int
		perGPU   bool
		ok       bool
	}{
		{"+59.2%", 59.2, 1, false, true},
		{"(-13.8%)", -13.8, 1, false, true},
		{"+21.1%/GPU", 21.1, 1, true, true},
		{"−3.0%", -3.0, 1, false, true}, // U+2212 minus sign
		{"-3.0%", -3.0, 1, false, true},
		{"+21.1 % / GPU", 21.1, 1, true, true},
		{" +12% ", 12, 0, false, true},
		{"59.2%", 59.2, 1, false, true}, // no sign: the first digit is not a sign
		{"12%", 12, 0, false, true},
		{"+0.05%", 0.05, 2, false, true},
		{"abc", 0, 0, false, false},
		{"", 0, 0, false, false},
		{"+59.2", 0, 0, false, false},
		{"a5%", 0, 0, false, false},
		{"+59.2%x", 0, 0, false, false},
	}
	for _, tt := range tests {
		v, dec, perGPU, ok := ParsePercent(tt.in)
		if ok != tt.ok || (ok && (!near(v, tt.value) || dec != tt.decimals || perGPU != tt.perGPU)) {
			t.Errorf("ParsePercent(%q) = %v, %d, %v, %v; want %v, %d, %v, %v", tt.in, v, dec, perGPU, ok, tt.value, tt.decimals, tt.perGPU, tt.ok)
		}
	}
}

// conclusionStudy compares one workload of two runs, with one claim.
func conclusionStudy(node int, base, opt *study.Run, printed string) *study.Study {
	s := testStudy(study.Throughput, node, base, opt)
	s.Baseline = study.Config{Runs: []string{base.ID}}
	s.Recommended = study.Config{Runs: []string{opt.ID}}
	s.Claims = []study.Claim{{Kind: study.ClaimConclusion, Workload: "random-32k", Printed: printed,
		Source: "report.md:23", Pos: study.Pos{File: "results/test/study.yaml", Line: 40}}}
	return s
}

func onlyClaim(t *testing.T, r checkedReport) Result {
	t.Helper()
	if len(r.Claims) != 1 {
		t.Fatalf("%d claim results, want 1", len(r.Claims))
	}
	return r.Claims[0]
}

func TestConclusionClaim(t *testing.T) {
	tests := []struct {
		name, printed, base, opt string
		baseGPUs, optGPUs        int
		match                    bool
		computed                 string
	}{
		// The Qwen3-32B conclusion table prints -13.8 % for 1580.36 against 1798.45.
		{"wrong", "-13.8%", "1798.45", "1580.36", 8, 8, false, "-12.1 %"},
		{"wrong in parentheses", "(-13.8%)", "1798.45", "1580.36", 8, 8, false, "-12.1 %"},
		{"right", "-12.1%", "1798.45", "1580.36", 8, 8, true, "-12.1 %"},
		{"unicode minus", "−12.1%", "1798.45", "1580.36", 8, 8, true, "-12.1 %"},
		{"wrong sign", "+12.1%", "1798.45", "1580.36", 8, 8, false, "-12.1 %"},
		// 3019.19 on 4 of 8 GPUs, projected x 2, against 3792.50.
		{"projected", "+59.2%", "3792.50", "3019.19", 8, 4, true, "+59.2 %"},
		{"projected, off by one digit", "+59.3%", "3792.50", "3019.19", 8, 4, false, "+59.2 %"},
		{"no decimals", "+59%", "3792.50", "3019.19", 8, 4, true, "+59 %"},
		{"two decimals", "+59.22%", "3792.50", "3019.19", 8, 4, true, "+59.22 %"},
		{"unprojected reading", "-20.4%", "3792.50", "3019.19", 8, 4, false, "+59.2 %"},
		// -0.001 % prints as +0.0 %, never -0.0 %.
		{"zero", "0.0%", "1000.00", "999.99", 8, 8, true, "+0.0 %"},
		{"zero, no decimals", "0%", "1000.00", "999.99", 8, 8, true, "+0 %"},
		{"zero against a drop", "-1.0%", "1000.00", "999.99", 8, 8, false, "+0.0 %"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := conclusionStudy(8, testRun("base", "Base", tt.baseGPUs, "random-32k", tt.base),
				testRun("opt", "Opt", tt.optGPUs, "random-32k", tt.opt), tt.printed)
			c := onlyClaim(t, build(s, nil))
			if !c.Checked {
				t.Fatalf("not checked: %s", c.Detail)
			}
			if c.Match != tt.match || c.Computed != tt.computed {
				t.Errorf("Match %v, Computed %q; want %v, %q (detail %q)", c.Match, c.Computed, tt.match, tt.computed, c.Detail)
			}
			if !tt.match && !strings.Contains(c.Detail, tt.printed) {
				t.Errorf("Detail %q does not name the printed figure %q", c.Detail, tt.printed)
			}
			if tt.match && c.Detail != "" {
				t.Errorf("matching claim has Detail %q", c.Detail)
			}
		})
	}
}

func TestConclusionClaimDetail(t *testing.T) {
	s := conclusionStudy(8, testRun("base", "Base", 8, "random-32k", "1798.45"),
		testRun("opt", "Opt", 8, "random-32k", "1580.36"), "-13.8%")
	c := onlyClaim(t, build(s, nil))
	want := "published -13.8%, but the logs give (1580.36 / 1798.45 - 1) x 100 = -12.1 %"
	if c.Detail != want {
		t.Errorf("Detail = %q, want %q", c.Detail, want)
	}
}

func TestPerGPUClaim(t *testing.T) {
	// 34491.13 tok/s on 2 GPUs against 14247.47 on 1: per GPU,
	// 17245.565 / 14247.47 - 1 = +21.04 %, which rounds to +21.0 %.
	for _, tt := range []struct {
		printed, computed string
		match             bool
	}{
		{"+21.1%/GPU", "+21.0 %/GPU", false},
		{"+21.0%/GPU", "+21.0 %/GPU", true},
		{"+21.04%/GPU", "+21.04 %/GPU", true},
		{"+21%/GPU", "+21 %/GPU", true},
	} {
		// On a 3-GPU node the 1-GPU run is projected x 3 and the 2-GPU run
		// is not, so the node-level change (-19.3 %) differs from the per-GPU one.
		for _, node := range []int{2, 3} {
			s := conclusionStudy(node, testRun("one", "1 GPU", 1, "random-32k", "14247.47"),
				testRun("two", "2 GPUs", 2, "random-32k", "34491.13"), tt.printed)
			c := onlyClaim(t, build(s, nil))
			if !c.Checked || c.Match != tt.match || c.Computed != tt.computed {
				t.Errorf("node %d, %s: Checked %v, Match %v, Computed %q; want true, %v, %q (%s)", node, tt.printed, c.Checked, c.Match, c.Computed, tt.match, tt.computed, c.Detail)
			}
		}
	}
	s := conclusionStudy(3, testRun("one", "1 GPU", 1, "random-32k", "14247.47"),
		testRun("two", "2 GPUs", 2, "random-32k", "34491.13"), "-19.3%")
	if c := onlyClaim(t, build(s, nil)); !c.Match || c.Computed != "-19.3 %" {
		t.Errorf("node-level claim on a 3-GPU node: Match %v, Computed %q; want true, -19.3 %%", c.Match, c.Computed)
	}
}

func TestClaimWithinInputRounding(t *testing.T) {
	// 112 against 100 is +12.0 %, but printed without decimals they stand
	// for [111.5, 112.5] and [99.5, 100.5]: anything from +10.9 % to
	// +13.07 % is possible.
	for _, tt := range []struct {
		base, opt, printed string
		match              bool
	}{
		{"100", "112", "+12.0%", true},
		{"100", "112", "+12.5%", true},
		{"100", "112", "+13.0%", true},
		{"100", "112", "+13.5%", false},
		{"100", "112", "+11.0%", true},
		{"100", "112", "+10.5%", false},
		// The same figures printed with two decimals leave no such room.
		{"100.00", "112.00", "+12.5%", false},
		{"100.00", "112.00", "+12.0%", true},
	} {
		s := conclusionStudy(8, testRun("base", "Base", 8, "random-32k", tt.base),
			testRun("opt", "Opt", 8, "random-32k", tt.opt), tt.printed)
		c := onlyClaim(t, build(s, nil))
		if c.Match != tt.match {
			t.Errorf("%s for %s -> %s: Match %v, want %v (computed %s)", tt.printed, tt.base, tt.opt, c.Match, tt.match, c.Computed)
		}
		if c.Computed != "+12.0 %" {
			t.Errorf("%s for %s -> %s: Computed %q, want the point value +12.0 %%", tt.printed, tt.base, tt.opt, c.Computed)
		}
	}
}

func TestPercentRange(t *testing.T) {
	from := report.Value{Measured: 100, Decimals: 0, Replicas: 1, GPUs: 1}
	to := report.Value{Measured: 112, Decimals: 0, Replicas: 1, GPUs: 1}
	lo, hi := percentRange(from, to, false)
	if !near(lo, (111.5/100.5-1)*100) || !near(hi, (112.5/99.5-1)*100) {
		t.Errorf("percentRange = [%v, %v], want [%v, %v]", lo, hi, (111.5/100.5-1)*100, (112.5/99.5-1)*100)
	}
	// Projection multiplies both ends; per GPU divides by the GPUs.
	to.Replicas, to.GPUs = 2, 4
	from.GPUs = 8
	lo, hi = percentRange(from, to, false)
	if !near(lo, (111.5*2/100.5-1)*100) || !near(hi, (112.5*2/99.5-1)*100) {
		t.Errorf("projected percentRange = [%v, %v]", lo, hi)
	}
	lo, hi = percentRange(from, to, true)
	if !near(lo, (111.5/4/(100.5/8)-1)*100) || !near(hi, (112.5/4/(99.5/8)-1)*100) {
		t.Errorf("per-GPU percentRange = [%v, %v]", lo, hi)
	}
}

func TestStepClaim(t *testing.T) {
	s := engineStudy()
	s.Claims = []study.Claim{
		{Kind: study.ClaimStep, Step: "engine", Printed: "+22.2%"},
		{Kind: study.ClaimStep, Step: "engine", Printed: "+25.0%"},
		{Kind: study.ClaimStep, Step: "engine", Printed: "fast"},
	}
	r := build(s, nil)
	if c := r.Claims[0]; !c.Checked || !c.Match || c.Computed != "+22.2 %" {
		t.Errorf("+22.2%%: %+v", c)
	}
	if c := r.Claims[1]; !c.Checked || c.Match || c.Computed != "+22.2 %" {
		t.Errorf("+25.0%%: %+v", c)
	}
	if c := r.Claims[2]; !c.Checked || c.Match || !strings.Contains(c.Detail, `"fast"`) {
		t.Errorf("unreadable claim: %+v", c)
	}
	if got := For(r.Claims, study.ClaimStep, "engine"); got != &r.Claims[0] {
		t.Errorf("For(step, engine) = %p, want the first step claim", got)
	}
	if got := For(r.Claims, study.ClaimConclusion, "engine"); got != nil {
		t.Errorf("For(conclusion, engine) = %+v, want nil", got)
	}
}

func TestRankingClaim(t *testing.T) {
	tests := []struct {
		printed string
		match   bool
		detail  string // part of Detail when it does not match
	}{
		{"SGLang (4635.31 tok/s) > vLLM (3792.50 tok/s)", true, ""},
		{"SGLang(4635.31 tok/s) > vLLM (3792.50 tok/s)", true, ""}, // as printed in the Qwen3-235B report
		{"vLLM (3792.50 tok/s) < SGLang (4635.31 tok/s)", true, ""},
		{"vLLM (3792.50 tok/s) > SGLang (4635.31 tok/s)", false, "3792.50 > 4635.31 does not hold"},
		{"SGLang (4635.31 tok/s) < vLLM (3792.50 tok/s)", false, "4635.31 < 3792.50 does not hold"},
		{"SGLang (4635.30 tok/s) > vLLM (3792.50 tok/s)", false, "the figure 4635.30 appears in no log of step engine"},
		{"SGLang (4636 tok/s) > vLLM (3792.50 tok/s)", false, "4636 appears in no log"},
		// A rounding of the logged figure is the figure: 4635.31 printed as 4635.3 or 4635.
		{"SGLang (4635.3 tok/s) > vLLM (3792.5 tok/s)", true, ""},
		{"SGLang (4635 tok/s) > vLLM (3792.50 tok/s)", true, ""},
		{"SGLang (4635.4 tok/s) > vLLM (3792.50 tok/s)", false, "4635.4 appears in no log"},
		// Each operator is checked between its neighbours.
		{"SGLang (4635.31 tok/s) > vLLM (3792.50 tok/s) > TensorRT-LLM (Not supported)", true, ""},
		{"SGLang (4635.31 tok/s) = vLLM (3792.50 tok/s)", false, "4635.31 = 3792.50 does not hold"},
		{"SGLang (4635.31 tok/s) ≈ vLLM (3792.50 tok/s)", false, "does not hold"},
		{"SGLang (4635.31 tok/s) &gt; vLLM (3792.50 tok/s)", true, ""},
		// In words: "improved from x to y" says y > x.
		{"Throughput improved from 3792.50 tok/s to 4635.31 tok/s by switching engines.", true, ""},
		{"Throughput improved from 4635.31 tok/s to 3792.50 tok/s.", false, "4635.31 < 3792.50 does not hold"},
		{"Latency dropped from 4635.31 tok/s to 3792.50 tok/s.", true, ""},
		{"SGLang > vLLM", false, "no figure"},
		// Thousands grouped with commas are one figure, not "4".
		{"SGLang (4,635.31 tok/s) > vLLM (3,792.50 tok/s)", true, ""},
		{"SGLang (4,635.30 tok/s) > vLLM (3,792.50 tok/s)", false, "the figure 4635.30 appears in no log"},
	}
	for _, tt := range tests {
		s := engineStudy()
		s.Claims = []study.Claim{{Kind: study.ClaimRanking, Step: "engine", Printed: tt.printed}}
		r := build(s, nil)
		c := r.Claims[0]
		if !c.Checked {
			t.Errorf("%q not checked", tt.printed)
		}
		if c.Match != tt.match {
			t.Errorf("%q: Match %v, want %v (%s)", tt.printed, c.Match, tt.match, c.Detail)
		}
		if c.Computed != "SGLang (4635.31 tok/s) > vLLM (3792.50 tok/s)" {
			t.Errorf("%q: Computed %q", tt.printed, c.Computed)
		}
		if !tt.match && !strings.Contains(c.Detail, tt.detail) {
			t.Errorf("%q: Detail %q, want it to contain %q", tt.printed, c.Detail, tt.detail)
		}
	}
}

func TestRankingClaimIgnoresExcludedRun(t *testing.T) {
	// A figure from an excluded run is not part of the step's ranking.
	s := engineStudy()
	s.Claims = []study.Claim{{Kind: study.ClaimRanking, Step: "engine", Printed: "SGLang (4635.31 tok/s) > vLLM (3792.50 tok/s)"}}
	r := build(s, map[string]string{"sglang-tp8": "model-mismatch"})
	// It is not checked (a warning), naming the run: the run's own error is
	// the one problem to report.
	if c := r.Claims[0]; c.Match || c.Checked || c.Excluded != "sglang-tp8" || !strings.Contains(c.Detail, "model-mismatch") {
		t.Errorf("claim naming an excluded run: Match %v, Checked %v, Excluded %q, Detail %q", c.Match, c.Checked, c.Excluded, c.Detail)
	}
}

func TestUncheckedClaims(t *testing.T) {
	s := engineStudy()
	s.Steps = append(s.Steps, study.Step{ID: "alone", Runs: []string{"vllm-tp8"}, Reference: "vllm-tp8"})
	s.Claims = []study.Claim{
		{Kind: study.ClaimConclusion, Workload: "random-32k", Printed: "+10.0%"}, // no logs for it
		{Kind: study.ClaimStep, Step: "alone", Printed: "+10.0%"},                // nothing to compare
		{Kind: study.ClaimStep, Step: "missing", Printed: "+10.0%"},
		{Kind: study.ClaimRanking, Step: "missing", Printed: "A (1.00 tok/s) > B (0.50 tok/s)"},
	}
	r := build(s, nil)
	for i, c := range r.Claims {
		if c.Checked || c.Match {
			t.Errorf("claim %d (%s %s%s): Checked %v, Match %v; want unchecked", i, c.Claim.Kind, c.Claim.Workload, c.Claim.Step, c.Checked, c.Match)
		}
		if c.Detail == "" {
			t.Errorf("claim %d (%s %s%s): no Detail says why it cannot be checked", i, c.Claim.Kind, c.Claim.Workload, c.Claim.Step)
		}
	}
	if !strings.Contains(r.Claims[0].Detail, "random-32k") {
		t.Errorf("Detail %q does not name the workload", r.Claims[0].Detail)
	}
}

func TestRankingOperators(t *testing.T) {
	v := func(x float64) *report.Value { return &report.Value{Measured: x, Decimals: 2} }
	for _, tc := range []struct {
		op   string
		a, b float64
		want bool
	}{
		{">", 2, 1, true}, {">", 1, 2, false}, {"<", 1, 2, true}, {"&lt;", 2, 1, false},
		{"=", 1.004, 1.001, true}, {"=", 1.01, 1.00, false},
		{"≈", 100, 98.5, true}, {"~", 100, 97, false},
		{"", 1, 2, true},
	} {
		if got := operatorHolds(tc.op, v(tc.a), v(tc.b)); got != tc.want {
			t.Errorf("%v %s %v: %v, want %v", tc.a, tc.op, tc.b, got, tc.want)
		}
	}
}

// A latency percentage is read in the report's convention, and the result
// says which one.
func TestLatencyPercentConventions(t *testing.T) {
	from := report.Value{Measured: 1685, Decimals: 0, Replicas: 1, GPUs: 1}
	to := report.Value{Measured: 1607, Decimals: 0, Replicas: 1, GPUs: 1}
	c := report.NewChange(report.MeanE2EL, from, to)
	for _, tc := range []struct {
		printed, computed string
		match             bool
	}{
		{"-4.6%", "-4.6 %", true},                            // new / old - 1
		{"+4.9%", "+4.9 % (speed-up, old / new - 1)", true},  // old / new - 1
		{"+4.6%", "+4.6 % (reduction, 1 - new / old)", true}, // 1 - new / old
		{"+7.0%", "+4.9 % (speed-up, old / new - 1)", false}, // none
		{"-4.9%", "-4.6 %", false},
	} {
		computed, match, _ := checkChange(tc.printed, c, report.MeanE2EL)
		if match != tc.match || computed != tc.computed {
			t.Errorf("%s: %q %v, want %q %v", tc.printed, computed, match, tc.computed, tc.match)
		}
	}
}

func TestWordedPercent(t *testing.T) {
	for in, want := range map[string]struct {
		v      float64
		dec    int
		perGPU bool
	}{
		"26.8% higher token throughput per GPU": {26.8, 1, true},
		"12% lower latency":                     {-12, 0, false},
		"+3.5%":                                 {3.5, 1, false},
	} {
		v, dec, perGPU, ok := ParsePercent(in)
		if !ok || v != want.v || dec != want.dec || perGPU != want.perGPU {
			t.Errorf("ParsePercent(%q) = %v %d %v %v", in, v, dec, perGPU, ok)
		}
	}
}

// A mean latency the log does not print is worked out from TTFT and TPOT,
// an approximation: a published figure within 2 % of it is a suspect
// mismatch (a warning), farther a certain one.
func TestDerivedLatencyClaim(t *testing.T) {
	s := testStudy(study.Latency, 1, testRun("vllm", "vLLM", 1), testRun("opt", "Opt", 1))
	for _, r := range s.Runs {
		setMetric(r, "sharegpt", "mean_ttft_ms", "42.27", 12)
		setMetric(r, "sharegpt", "mean_tpot_ms", "7.82", 16)
		setMetric(r, "sharegpt", "total_output_tokens", "22061", 6)
		setMetric(r, "sharegpt", "completed", "100", 3)
	}
	s.Baseline = study.Config{Runs: []string{"vllm"}}
	s.Recommended = study.Config{Runs: []string{"opt"}}
	// 42.27 + 7.82 x (220.61 - 1) = 1759.66 ms
	for _, tc := range []struct {
		printed        string
		match, suspect bool
	}{
		{"Mean latency: 1.76s/req", true, false},
		{"Mean latency: 1.78s/req", false, true},
		{"Mean latency: 1.95s/req", false, false},
	} {
		s.Claims = []study.Claim{{Kind: study.ClaimValue, Workload: "sharegpt", Config: study.ConfigBaseline, Printed: tc.printed}}
		c := build(s, nil).Claims[0]
		if c.Match != tc.match || c.Suspect != tc.suspect {
			t.Errorf("%s: match %v suspect %v (%s), want %v %v", tc.printed, c.Match, c.Suspect, c.Detail, tc.match, tc.suspect)
		}
	}
}
