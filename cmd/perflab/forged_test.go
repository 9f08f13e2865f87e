package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// forged is what a pull request puts in a file name or a value to make a
// CI runner annotate a file of its choice.
const forged = "\n::error file=README.md,line=1::x"

// runnerCommands returns the lines of out that a GitHub Actions runner
// reads as workflow commands: a line (ended by LF, CR or CRLF) whose
// first non-blank characters are "::", or that holds "##[" anywhere.
func runnerCommands(out string) []string {
	var cmds []string
	for _, l := range regexp.MustCompile(`\r\n|\r|\n`).Split(out, -1) {
		if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") || strings.Contains(l, "##[") {
			cmds = append(cmds, l)
		}
	}
	return cmds
}

func TestNeutralise(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain line\n", "plain line\n"},
		{"a::b and c::d\n", "a::b and c::d\n"},
		{"a" + forged + "\n", "a\n> ::error file=README.md,line=1::x\n"},
		{"  ::warning::x\n", ">   ::warning::x\n"},
		{"\t::error::x", "> \t::error::x"},
		{"a\r::error::x\r\n", "a\r> ::error::x\r\n"},
		{"\u00a0::notice::x\n", "> \u00a0::notice::x\n"},
		{"see ##[error]x and ##vso[task.logissue]y\n", `see ##\[error]x and ##vso\[task.logissue]y` + "\n"},
	}
	for _, c := range cases {
		got := string(neutralise([]byte(c.in)))
		if got != c.want {
			t.Errorf("neutralise(%q) = %q, want %q", c.in, got, c.want)
		}
		if cmds := runnerCommands(got); len(cmds) > 0 {
			t.Errorf("neutralise(%q) still holds commands %q", c.in, cmds)
		}
	}
}

// TestGuardAcrossWrites: a command split over several writes, or one
// whose line is never ended, is caught all the same.
func TestGuardAcrossWrites(t *testing.T) {
	var out bytes.Buffer
	g := newGuard(&out)
	for _, part := range []string{"file a", "\n:", ":error file=README.md", "::x\n", "::warning::tail"} {
		g.Write([]byte(part))
	}
	g.Flush()
	if cmds := runnerCommands(out.String()); len(cmds) > 0 {
		t.Errorf("commands %q in %q", cmds, out.String())
	}
	if !strings.Contains(out.String(), "file a\n") {
		t.Errorf("text lost: %q", out.String())
	}
}

func TestPrintError(t *testing.T) {
	var out bytes.Buffer
	printError(&out, errors.New("results/x/runs/a/b.log"+forged+": is a named pipe"))
	if cmds := runnerCommands(out.String()); len(cmds) > 0 {
		t.Errorf("the last error prints commands %q", cmds)
	}
	if !strings.Contains(out.String(), "README.md") {
		t.Errorf("the error lost its text: %q", out.String())
	}
}

// TestNoForgedAnnotations: with a file, a run folder and a study folder
// named with a newline and a workflow command, nothing perflab prints,
// on stdout or stderr, in check (every format), build, summary, add and
// import, is a workflow command perflab did not mean; check --format
// github's own annotations never name the forged file.
func TestNoForgedAnnotations(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", "results"))
	if err != nil {
		t.Fatal(err)
	}
	flags := copyRepo(t)
	for _, p := range []string{
		filepath.Join("results", "qwen3-32b-a100", "runs", "vllm", "sharegpt.log"+forged),
		filepath.Join("results", "qwen3-32b-a100", "notes"+forged),
		filepath.Join("results", "qwen3-32b-a100", "runs", "x"+forged, "run.yaml"),
		filepath.Join("content", "en", "y"+forged+".md"),
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("name: "+strings.ReplaceAll(forged, "\n", " ")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile("bench"+forged+".txt", []byte("not a log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("report"+forged+".md", []byte("# nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := [][]string{
		append([]string{"check"}, flags...),
		append([]string{"check", "-v", "--format", "json"}, flags...),
		append([]string{"build", "--out", "site"}, flags...),
		{"summary", "--base", repo, "--head", "results"},
		{"add", "--study", "qwen3-32b-a100", "--run", "new", "bench" + forged + ".txt"},
		{"import", "--out", "imported", "report" + forged + ".md"},
		{"check", "--results", "missing" + forged},
	}
	for _, args := range runs {
		stdout, stderr, err := perflab(t, args...)
		var last bytes.Buffer
		if err != nil {
			printError(&last, err)
		}
		all := stdout + stderr + last.String()
		if !strings.Contains(all, "README.md") {
			t.Errorf("perflab %s does not name the file at all:\n%s", args[0], all)
		}
		if cmds := runnerCommands(all); len(cmds) > 0 {
			t.Errorf("perflab %s prints workflow commands %q", strings.Join(args[:1], " "), cmds)
		}
	}
	stdout, stderr, _ := perflab(t, append([]string{"check", "--format", "github"}, flags...)...)
	cmds := runnerCommands(stdout + stderr)
	if len(cmds) == 0 {
		t.Fatalf("check --format github printed no annotation:\n%s%s", stdout, stderr)
	}
	// The runner reads the properties up to the first "::"; escaped
	// values hold no ':' and no ','.
	props := regexp.MustCompile(`^::[a-z]+ ([^:]*)::`)
	for _, c := range cmds {
		m := props.FindStringSubmatch(c)
		if m == nil {
			t.Errorf("not an annotation: %q", c)
			continue
		}
		for _, p := range strings.Split(m[1], ",") {
			if p == "file=README.md" || p == "line=1::x" {
				t.Errorf("check --format github forged %q", c)
			}
		}
	}
}

// FuzzNeutralise: whatever text goes through the guard, no line of what
// comes out is a workflow command, and text without one is unchanged.
func FuzzNeutralise(f *testing.F) {
	for _, s := range []string{"a" + forged, "\r::x", " \u00a0::y\n##[error]z", "plain\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := string(neutralise([]byte(s)))
		if cmds := runnerCommands(out); len(cmds) > 0 {
			t.Fatalf("neutralise(%q) = %q holds commands %q", s, out, cmds)
		}
		if len(runnerCommands(s)) == 0 && !strings.Contains(s, "##vso[") && out != s {
			t.Fatalf("neutralise(%q) = %q changed text without a command", s, out)
		}
	})
}
