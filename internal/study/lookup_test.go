package study

import "testing"

func TestLookups(t *testing.T) {
	s := &Study{
		Workloads: []Workload{{ID: "short"}, {ID: "long", Main: true}, {ID: "short"}},
		Engines:   []Engine{{ID: "vllm"}, {ID: "sglang"}},
		Steps:     []Step{{ID: "baseline"}, {ID: "fp8"}},
		Runs:      []*Run{{ID: "a"}, {ID: "b"}, {ID: "c"}},
	}
	if w := s.Workload("short"); w != &s.Workloads[0] {
		t.Errorf("Workload(short) = %p, want the first, %p", w, &s.Workloads[0])
	}
	if w := s.MainWorkload(); w != &s.Workloads[1] {
		t.Errorf("MainWorkload() = %v, want long", w)
	}
	if e := s.Engine("sglang"); e != &s.Engines[1] {
		t.Errorf("Engine(sglang) = %v", e)
	}
	if st := s.Step("fp8"); st != &s.Steps[1] {
		t.Errorf("Step(fp8) = %v", st)
	}
	if r := s.Run("b"); r != s.Runs[1] {
		t.Errorf("Run(b) = %v", r)
	}
	if s.Workload("none") != nil || s.Engine("none") != nil || s.Step("none") != nil || s.Run("none") != nil || s.Run("d") != nil {
		t.Error("a missing id found something")
	}
	if (&Study{}).MainWorkload() != nil {
		t.Error("MainWorkload of a study without workloads is not nil")
	}
}
