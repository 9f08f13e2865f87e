package serving

import "testing"

// A command parsed again is read the same, whatever the first caller did
// with its copy.
func TestParseRemembersUnchanged(t *testing.T) {
	const cmd = "vllm serve org/m --tensor-parallel-size 4 --max-num-seqs 256"
	for range 2 { // the first parse and one remembered
		c := Parse(cmd)
		c.Flags[0].Value = "8"
		c.Flags = append(c.Flags, Flag{Name: "x"})
	}
	again := Parse(cmd)
	if again.Model != "org/m" || len(again.Flags) != 2 || again.Flags[0].Value != "4" {
		t.Errorf("parsed again: %+v", again)
	}
}
