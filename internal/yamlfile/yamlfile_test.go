package yamlfile

import (
	"strings"
	"testing"
	"unicode/utf16"
)

func utf16LE(s string, bom bool) []byte {
	var out []byte
	if bom {
		out = append(out, 0xff, 0xfe)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}

func utf16BE(s string) []byte {
	out := []byte{0xfe, 0xff}
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u>>8), byte(u))
	}
	return out
}

// TestRefused: every way a YAML file can mean something other than what
// a reviewer reads is refused at its line, saying what to do.
func TestRefused(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		line int
		msg  string
	}{
		{"UTF-8 BOM", []byte("\xef\xbb\xbfmodel: x\n"), 1, "byte-order mark"},
		{"UTF-16 LE BOM", utf16LE("model: x\nseed: 1\n", true), 1, "UTF-16"},
		{"UTF-16 BE BOM", utf16BE("model: x\n"), 1, "UTF-16"},
		{"UTF-16 without BOM", utf16LE("model: x\n", false), 1, "NUL byte"},
		{"UTF-32 LE", append([]byte{0xff, 0xfe, 0, 0}, 'a', 0, 0, 0), 1, "UTF-32"},
		{"Latin-1 byte", []byte("model: x\nname: caf\xe9\n"), 2, "byte 0xe9 at column 10 is not UTF-8"},
		{"second document", []byte("model: x\nseed: 1\n---\nmodel: y\n"), 3, "a second YAML document"},
		{"second document after an opening marker", []byte("# c\n---\nmodel: x\n--- \nmodel: y\n"), 4, "a second YAML document"},
		{"empty second document", []byte("model: x\n---\n"), 2, "a second YAML document"},
		{"second document with a syntax error", []byte("model: x\n---\na: [\n"), 0, "invalid YAML"},
		{"leading zero", []byte("model: x\nseed: 042\n"), 2, `"042" starts with 0, which YAML reads as an octal number`},
		{"negative leading zero", []byte("a:\n  - -007\n"), 2, "starts with 0"},
		{"hexadecimal", []byte("seed: 0x2A\n"), 1, "hexadecimal"},
		{"octal 0o", []byte("seed: 0o52\n"), 1, "octal number"},
		{"binary", []byte("seed: 0b101010\n"), 1, "binary"},
		{"underscores", []byte("num_prompts: 1_000\n"), 1, "without _"},
		{"underscores in a float", []byte("gpu_hour: 1_000.5\n"), 1, "without _"},
		{"sexagesimal", []byte("duration: 1:30\n"), 1, "base 60"},
		{"infinity", []byte("gpu_hour: .inf\n"), 1, "infinity"},
		{"negative infinity", []byte("gpu_hour: -.Inf\n"), 1, "infinity"},
		{"not a number", []byte("gpu_hour: .NaN\n"), 1, "not-a-number"},
		{"yes", []byte("main: yes\n"), 1, "boolean to YAML 1.1"},
		{"Off in a list", []byte("flags: [On, Off]\n"), 1, "boolean to YAML 1.1"},
		{"n as a word", []byte("words:\n  - t\n  - n\n"), 3, `"n" is a boolean`},
		{"in a flow mapping", []byte("price: {gpu_hour: 02}\n"), 1, "starts with 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, errs := Parse(c.data)
			if n != nil || len(errs) == 0 {
				t.Fatalf("parsed, want a problem saying %q", c.msg)
			}
			e := errs[0]
			if c.line > 0 && e.Line != c.line || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("line %d: %s\nwant line %d saying %q", e.Line, e.Msg, c.line, c.msg)
			}
			if !strings.Contains(e.Msg, ":") {
				t.Errorf("%q does not say what to do", e.Msg)
			}
		})
	}
}

// TestAsWritten: what reads the same everywhere passes unchanged: plain
// decimal numbers, quoted text, keys, block scalars, explicit !!str, an
// opening --- and a closing ... marker.
func TestAsWritten(t *testing.T) {
	docs := []string{
		"seed: 42\nzero: 0\nneg: -5\nprice: 2.5\nsmall: 1.5e-3\nversion: 0.10.1\n",
		"seed: \"042\"\nhex: '0x2A'\nmain: true\nflag: false\nanswer: \"no\"\n",
		"042: key\nyes: key\nlist: [a, b]\n",
		"text: |\n  042\n  yes\nother: >\n  1:30\n",
		"tagged: !!str 042\n",
		"---\nmodel: x\n...\n",
		"# only a comment\n---\nmodel: x\n",
		"time: \"12:30\"\nname: nothing\nonly: offline\n",
	}
	for _, d := range docs {
		if _, errs := Parse([]byte(d)); errs != nil {
			t.Errorf("%q: %v", d, errs[0])
		}
	}
	if n, errs := Parse([]byte("# nothing\n")); n != nil || errs != nil {
		t.Errorf("a file of comments: node %v, problems %v", n, errs)
	}
}

// TestAllProblems: every surprise of a file is listed, not the first only.
func TestAllProblems(t *testing.T) {
	_, errs := Parse([]byte("a: 01\nb: yes\nc: ok\nd: 0x1\n"))
	var lines []int
	for _, e := range errs {
		lines = append(lines, e.Line)
	}
	if len(lines) != 3 || lines[0] != 1 || lines[1] != 2 || lines[2] != 4 {
		t.Errorf("problems at lines %v, want [1 2 4]", lines)
	}
}

func TestUnmarshal(t *testing.T) {
	var v struct{ Seed int }
	if err := Unmarshal([]byte("seed: 042\n"), &v); err == nil || v.Seed == 34 {
		t.Errorf("seed: 042 decoded as %d, err %v", v.Seed, err)
	}
	if err := Unmarshal([]byte("seed: 42\n"), &v); err != nil || v.Seed != 42 {
		t.Errorf("seed: 42 decoded as %d, err %v", v.Seed, err)
	}
}

// FuzzParse: Parse never panics, and what it accepts is UTF-8.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a: 1\n", "a: 042\n", "---\na: 1\n---\nb: 2\n", "\xef\xbb\xbfa: 1", "a: [yes, 1:30]\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4000 {
			return
		}
		n, errs := Parse(data)
		if n != nil && errs != nil {
			t.Fatal("a node and problems")
		}
		for _, e := range errs {
			if e.Line < 1 {
				t.Fatalf("problem at line %d: %s", e.Line, e.Msg)
			}
		}
	})
}

// TestHiddenEscapes: a double-quoted value whose escape writes a hidden
// character is found at the value; a character written as itself, and
// escapes of visible characters, are not.
func TestHiddenEscapes(t *testing.T) {
	data := []byte("model: x\ncommand: \"vllm serve \\u202Emodel\"\nlist:\n  - \"a\\u200bb\"\n  - \"\\u00e9 \\t ok\"\nraw: \"\u2066\"\n")
	got := HiddenEscapes(data)
	want := []Escape{{2, 10, 0x202e}, {4, 5, 0x200b}}
	if len(got) != len(want) {
		t.Fatalf("%v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("escape %d = %v, want %v", i, got[i], want[i])
		}
	}
	if HiddenEscapes([]byte("a: \"\\u0041\"\n")) != nil {
		t.Error("an escape of a visible letter is listed")
	}
}
