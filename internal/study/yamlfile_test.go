package study_test

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/perflab/perflab/internal/study"
)

// TestYAMLMeansWhatItSays: study.yaml, run.yaml and prices.yaml are read
// through package yamlfile, so a file in another encoding, a second
// document or a number YAML does not read as written is refused at its
// line, where the loader used to read seed: 042 as 34.
func TestYAMLMeansWhatItSays(t *testing.T) {
	utf16File := func(s string) string {
		out := []byte{0xff, 0xfe}
		for _, u := range utf16.Encode([]rune(s)) {
			out = append(out, byte(u), byte(u>>8))
		}
		return string(out)
	}
	const sy, rv = "study.yaml", "runs/vllm/run.yaml"
	cases := []struct {
		name string
		file string
		edit func(string) string
		at   string
		msg  string
	}{
		{"seed 042", sy, func(s string) string {
			return strings.Replace(s, "    output_len: 100\n", "    output_len: 100\n    seed: 042\n", 1)
		}, "study.yaml:21", `"042" starts with 0`},
		{"UTF-16 study.yaml", sy, utf16File, "study.yaml:1", "UTF-16"},
		{"BOM in run.yaml", rv, func(s string) string { return "\ufeff" + s }, "runs/vllm/run.yaml:1", "byte-order mark"},
		{"second document in run.yaml", rv, func(s string) string { return s + "---\ngpus: 8\n" }, "runs/vllm/run.yaml:5", "a second YAML document"},
		{"gpus 0x8", rv, func(s string) string { return strings.Replace(s, "gpus: 1\n", "gpus: 0x1\n", 1) }, "runs/vllm/run.yaml:4", "hexadecimal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := validFiles()
			files[c.file] = c.edit(files[c.file])
			_, problems, err := study.Load(mapFS(files), "results/x", "x")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range problems {
				got = append(got, p.Error())
				if strings.HasPrefix(p.Error(), "results/x/"+c.at+": ") && strings.Contains(p.Msg, c.msg) {
					return
				}
			}
			t.Errorf("no problem at %s saying %q among:\n%s", c.at, c.msg, strings.Join(got, "\n"))
		})
	}
}

func TestSharedPricesYAML(t *testing.T) {
	fsys := mapFS(map[string]string{study.PricesFile: "prices:\n  - gpu: A100\n    gpu_hour: 2.5\n    currency: USD\n---\nprices: []\n"})
	_, probs, err := study.LoadSharedPrices(fsys, "results")
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != 1 || probs[0].Pos.Line != 5 || !strings.Contains(probs[0].Msg, "second YAML document") {
		t.Errorf("problems %v, want one at line 5 about the second document", probs)
	}
}
