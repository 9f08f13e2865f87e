package check

import "testing"

// TestStudyNamesInProse: a study's own model and engine names pass in its
// Chinese and Japanese prose without an entry in the shared glossary;
// elsewhere they are still reported.
func TestStudyNamesInProse(t *testing.T) {
	g := &Glossary{Latin: map[string][]string{"all": {"vLLM"}}}
	md := "我们用 LMDeploy 部署 Mixtral 模型。\n"
	if d := g.LatinWords("content/zh/x.md", "zh", md); len(d) != 2 {
		t.Fatalf("without the study's names: %d diagnostics, want 2 (LMDeploy, Mixtral): %v", len(d), d)
	}
	names := NamesOfStudy([]byte("model: mistralai/Mixtral-8x7B-Instruct\nhardware:\n  gpu: NVIDIA H100\nengines:\n  - id: lmdeploy\n    name: LMDeploy\n    version: v0.6.0\n"))
	if d := g.LatinWordsOf("content/zh/x.md", "zh", md, func() []string { return names }); len(d) != 0 {
		t.Errorf("the study's own names are reported: %v", d)
	}
	if d := g.LatinWordsOf("content/zh/x.md", "zh", "这个 kernel 很快。\n", func() []string { return names }); len(d) != 1 {
		t.Errorf("an English word is no longer reported in a study's prose: %v", d)
	}
	if NamesOfStudy([]byte("model: [")) != nil {
		t.Error("a study.yaml that does not parse gives names")
	}
}
