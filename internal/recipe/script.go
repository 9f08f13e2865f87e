package recipe

import (
	"cmp"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/shellquote"
	"github.com/perflab/perflab/internal/study"
)

// Script writes the recipes of a study's runs as one POSIX shell script,
// reproduce.sh of the downloads: "sh reproduce.sh" lists the runs, "sh
// reproduce.sh RUN serve" runs a run's serving command and "sh
// reproduce.sh RUN bench WORKLOAD" the benchmark command of a workload.
// Each command runs through sh -c as one quoted word, so that no command
// (they are copied from hostile files) can change the script around it;
// every other value stands on a comment line. recipes are All(s); path
// turns a file of the results tree into the path shown.
func Script(s *study.Study, recipes []Recipe, path func(string) string) []byte {
	var b strings.Builder
	// A comment is one line, and shows control characters rather than
	// sending them to the terminal of whoever reads the script.
	comment := func(format string, a ...any) {
		b.WriteString("# " + plain.Line(shellquote.Comment(fmt.Sprintf(format, a...))) + "\n")
	}
	b.WriteString("#!/bin/sh\n")
	comment("How to run again each run of study %s, written by perflab from %s.", s.ID, path(s.Pos.File))
	comment("Every item says the file and line it was read from; what no file records is unknown.")
	b.WriteString("#\n#   sh reproduce.sh                     lists the runs and their workloads\n" +
		"#   sh reproduce.sh RUN serve           runs the serving command of RUN (start it first)\n" +
		"#   sh reproduce.sh RUN bench WORKLOAD  runs the benchmark command of WORKLOAD against it\n" +
		"set -eu\ncase \"${1:-}/${2:-}/${3:-}\" in\n")
	var list []string
	for _, rc := range recipes {
		line := rc.Run + ":"
		for _, w := range rc.Workloads {
			line += " " + w.ID
		}
		list = append(list, line)
		b.WriteString("\n")
		rc.writeCases(&b, comment, path)
	}
	b.WriteString("\n'//')\n\tprintf '%s\\n' 'runs and their workloads:'")
	for _, l := range list {
		b.WriteString(" " + shellquote.Quote("  "+l))
	}
	b.WriteString("\n\t;;\n*)\n\techo \"no such run, step or workload: $*; sh reproduce.sh lists them\" >&2\n\texit 2\n\t;;\nesac\n")
	return []byte(b.String())
}

// writeCases writes a run's recipe as comments and its commands as the
// cases RUN/serve/ and RUN/bench/WORKLOAD.
func (rc Recipe) writeCases(b *strings.Builder, comment func(string, ...any), path func(string) string) {
	v := func(i Item) string {
		if !i.Known() {
			return "unknown"
		}
		if from := i.From(path); from != "" {
			return i.Value + " (" + from + ")"
		}
		return i.Value
	}
	comment("Run %s (%s)", rc.Run, rc.Name)
	comment("Engine: %s, version %s", v(rc.Engine), v(rc.EngineVersion))
	comment("Benchmark tool: %s, version %s", v(rc.Tool), v(rc.ToolVersion))
	comment("Model: %s, revision %s", v(rc.Model), v(rc.Revision))
	comment("GPUs: %s x %s", v(rc.GPUs), v(rc.GPU))
	serve := "serving command: " + rc.Serve.From(path)
	if rc.Derived {
		serve = "serving command, rebuilt because the source did not print it: " + rc.Serve.From(path)
	}
	comment("%s", serve)
	fmt.Fprintf(b, "%s)\n", shellquote.Quote(rc.Run+"/serve/"))
	writeCommand(b, "the serving command of run "+rc.Run, rc.Serve, path)
	for _, w := range rc.Workloads {
		comment("Workload %s: dataset %s, input length %s, output length %s, %s prompts, seed %s",
			w.ID, v(w.Dataset), v(w.InputLen), v(w.OutputLen), v(w.NumPrompts), v(w.Seed))
		if w.Echo.Known() {
			comment("The benchmark printed its arguments at %s: %s", w.Echo.From(path), w.Echo.Value)
		}
		fmt.Fprintf(b, "%s)\n", shellquote.Quote(rc.Run+"/bench/"+w.ID))
		if !w.Bench.Known() {
			msg := fmt.Sprintf("the benchmark command of run %s on workload %s is unknown: no file records it", rc.Run, w.ID)
			fmt.Fprintf(b, "\techo %s >&2\n\texit 1\n\t;;\n", shellquote.Quote(msg))
			continue
		}
		comment("benchmark command: %s", w.Bench.From(path))
		writeCommand(b, fmt.Sprintf("the benchmark command of run %s on workload %s", rc.Run, w.ID), w.Bench, path)
	}
}

// writeCommand writes the body of a case that runs cmd. A command holding
// a character no output shows as it is (a bidirectional control that
// makes the script read as another command than it runs, a zero-width
// space, an escape sequence) is never written: the case says which
// character it was and fails.
func writeCommand(b *strings.Builder, what string, cmd Item, path func(string) string) {
	if r, col, ok := hiddenRune(cmd.Value); ok {
		msg := fmt.Sprintf("%s holds U+%04X at character %d, which hides or reorders text: it is not written here, and perflab check refuses it; fix it in %s",
			what, r, col, cmp.Or(cmd.From(path), "its file"))
		fmt.Fprintf(b, "\techo %s >&2\n\texit 1\n\t;;\n", shellquote.Quote(plain.Line(msg)))
		return
	}
	fmt.Fprintf(b, "\texec sh -c %s\n\t;;\n", shellquote.Quote(cmd.Value))
}

// hiddenRune finds the first character of a command that package plain
// would not show as it is (line breaks and tabs are a command's own).
func hiddenRune(s string) (rune, int, bool) {
	col := 0
	for _, r := range s {
		col++
		if r != '\n' && r != '\t' && (r == utf8.RuneError || plain.Unsafe(r)) {
			return r, col, true
		}
	}
	return 0, 0, false
}
