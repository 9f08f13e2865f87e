package check

import (
	"strings"
	"testing"
)

func TestPortableNameRefused(t *testing.T) {
	cases := []struct{ name, says string }{
		{"con", "Windows device name"},
		{"CON", "Windows device name"},
		{"nul.log", "Windows device name"},
		{"Aux.tar.gz", "Windows device name"},
		{"com1", "Windows device name"},
		{"lpt9.yaml", "Windows device name"},
		{"com\u00b2.md", "Windows device name"},
		{"prn .txt", "Windows device name"},
		{"a:b", `holds ':'`},
		{"a<b", `holds '<'`},
		{"a>b", `holds '>'`},
		{`a"b`, `holds '"'`},
		{`a\b`, `holds '\\'`},
		{"a|b", `holds '|'`},
		{"a?b", `holds '?'`},
		{"a*b", `holds '*'`},
		{"a\x01b", "control character (U+0001)"},
		{"log\n::error file=README.md,line=1::x", "control character (U+000A)"},
		{"a\x7f", "control character (U+007F)"},
		{"trail.", "ends in a dot or a space"},
		{"trail ", "ends in a dot or a space"},
		{"x\u202ey.md", "U+202E RIGHT-TO-LEFT OVERRIDE"},
		{"zero\u200bwidth", "U+200B ZERO WIDTH SPACE"},
		{"bad\xff.md", "not UTF-8"},
	}
	for _, c := range cases {
		got := PortableNames([]TreePath{{Shown: "results/x/" + c.name, Rel: "x/" + c.name}})
		if len(got) != 1 || got[0].Rule != RulePortableName || got[0].Severity != Error || got[0].File != "results/x/"+c.name ||
			!strings.Contains(got[0].Message, c.says) || !strings.HasSuffix(got[0].Message, "rename it") {
			t.Errorf("%q: %v, want one error saying %q", c.name, got, c.says)
		}
	}
}

func TestPortableNameAccepted(t *testing.T) {
	for _, name := range []string{"console.md", "nullable.log", "com10", "lpt", "auxiliary", "en.yaml", "v0.10.1", "a.b.c", "random-1k.c16.run-1.log", "中文.md", ".gitkeep"} {
		if got := PortableNames([]TreePath{{Shown: "x/" + name, Rel: name}}); got != nil {
			t.Errorf("%q: %v", name, got)
		}
	}
}

// TestPortableNameCollisions: names of one folder that differ only by
// case or Unicode normalisation collide; the same name in two folders
// does not.
func TestPortableNameCollisions(t *testing.T) {
	got := PortableNames([]TreePath{
		{"locales/EN.yaml", "EN.yaml"},
		{"locales/en.yaml", "en.yaml"},
		{"content/en/caf\u00e9.md", "en/caf\u00e9.md"},
		{"content/en/cafe\u0301.md", "en/cafe\u0301.md"},
		{"content/zh/caf\u00e9.md", "zh/caf\u00e9.md"},
		{"results/a/runs/Stra\u00dfe", "a/runs/Stra\u00dfe"},
		{"results/a/runs/strasse", "a/runs/strasse"},
	})
	want := []string{"locales/en.yaml", "content/en/cafe\u0301.md", "results/a/runs/strasse"}
	if len(got) != len(want) {
		t.Fatalf("%d problems, want %d: %v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].File != w || !strings.Contains(got[i].Message, "differ only by case") {
			t.Errorf("problem %d = %v, want one on %s", i, got[i], w)
		}
	}
}
