package report

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
)

func TestFreshnesses(t *testing.T) {
	uses := []EngineUse{
		{Study: "a", ID: "vllm", Name: "vLLM", Version: "v0.10.1", Current: true},
		{Study: "a", ID: "sglang", Name: "SGLang", Version: "nightly", Current: true},
		{Study: "b", ID: "vllm", Name: "vLLM", Version: "v0.11.0", Current: true},
		{Study: "b", ID: "vllm", Name: "vLLM", Version: "v0.10.2"}, // a run's history
		{Study: "b", ID: "sglang", Name: "SGLang", Version: "v0.5.5", Current: true},
		// Another id, the same name: the same engine.
		{Study: "c", ID: "vllm-cuda", Name: "VLLM", Version: "0.11.0", Current: true},
		// Another name, the same id: the same engine.
		{Study: "d", ID: "VLLM", Name: "vLLM (ROCm)", Version: "v0.10.2", Current: true},
		{Study: "d", ID: "trtllm", Name: "TensorRT-LLM", Version: "1.2.0rc1", Current: true},
		// A newer version in a history of a study listed later.
		{Study: "e", ID: "sglang", Name: "SGLang", Version: "v0.5.6", Current: true},
		{Study: "e", ID: "sglang", Name: "SGLang", Version: "v0.5.5.post1"},
	}
	want := map[string]map[string]Freshness{
		"a": {"vllm": {Known: true, Behind: 2, Newest: "v0.11.0", Study: "b"}, "sglang": {}},
		"b": {"vllm": {Known: true}, "sglang": {Known: true, Behind: 2, Newest: "v0.5.6", Study: "e"}},
		"c": {"vllm-cuda": {Known: true}},
		"d": {"VLLM": {Known: true, Behind: 1, Newest: "v0.11.0", Study: "b"}, "trtllm": {Known: true}},
		"e": {"sglang": {Known: true}},
	}
	got := Freshnesses(uses)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Freshnesses =\n%v\nwant\n%v", got, want)
	}
	// The same uses in another order give the same answer.
	rng := rand.New(rand.NewSource(1))
	for range 20 {
		shuffled := append([]EngineUse(nil), uses...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if again := Freshnesses(shuffled); !reflect.DeepEqual(again, want) {
			t.Fatalf("in another order: %v", again)
		}
	}
}

// BenchmarkFreshnesses: 1,000 studies of three engines, each run of one
// engine with a history of 64 versions.
func BenchmarkFreshnesses(b *testing.B) {
	var uses []EngineUse
	for s := range 1000 {
		id := fmt.Sprintf("study-%04d", s)
		uses = append(uses,
			EngineUse{Study: id, ID: "vllm", Name: "vLLM", Version: fmt.Sprintf("v0.%d.%d", s%20, s%7), Current: true},
			EngineUse{Study: id, ID: "sglang", Name: "SGLang", Version: fmt.Sprintf("v0.5.%dpost%d", s%9, s%3), Current: true},
			EngineUse{Study: id, ID: "trtllm", Name: "TensorRT-LLM", Version: "1.2.0rc1", Current: true})
		for v := range 64 {
			uses = append(uses, EngineUse{Study: id, ID: "vllm", Name: "vLLM", Version: fmt.Sprintf("v0.%d.%d", v, s%11)})
		}
	}
	b.ResetTimer()
	for range b.N {
		Freshnesses(uses)
	}
}
