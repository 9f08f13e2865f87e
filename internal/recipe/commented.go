package recipe

import (
	"strings"

	"github.com/perflab/perflab/internal/shellquote"
)

// Commented writes a recipe as a report page shows it: comments in the
// page's language (T localizes message ids), then the commands. Every
// value that is not a command stands on a comment line, cleared of line
// breaks, so that pasting the block runs only the commands.
func Commented(rc Recipe, T func(string, ...any) string, repoPath func(string) string) string {
	unknown := T("reproduce.unknown")
	v := func(i Item) string {
		if i.Known() {
			return i.Value
		}
		return unknown
	}
	var b strings.Builder
	comment := func(text string) {
		b.WriteString("# ")
		b.WriteString(shellquote.Comment(text))
		b.WriteByte('\n')
	}
	comment(T("reproduce.engine", "Engine", v(rc.Engine), "Version", v(rc.EngineVersion)))
	comment(T("reproduce.tool", "Tool", v(rc.Tool), "Version", v(rc.ToolVersion)))
	comment(T("reproduce.model", "Model", v(rc.Model), "Revision", v(rc.Revision)))
	comment(T("reproduce.gpus", "Count", v(rc.GPUs), "GPU", v(rc.GPU)))
	for _, w := range rc.Workloads {
		comment(T("reproduce.workload", "Workload", w.ID, "Dataset", v(w.Dataset), "Input", v(w.InputLen),
			"Output", v(w.OutputLen), "Prompts", v(w.NumPrompts), "Seed", v(w.Seed)))
	}
	b.WriteString("\n")
	serve := "reproduce.serve"
	if rc.Derived {
		serve = "reproduce.serve_derived"
	}
	comment(T(serve, "From", rc.Serve.From(repoPath)))
	b.WriteString(strings.TrimRight(rc.Serve.Value, "\n"))
	b.WriteByte('\n')
	for _, w := range rc.Workloads {
		b.WriteString("\n")
		if !w.Bench.Known() {
			comment(T("reproduce.bench_unknown", "Workload", w.ID))
		} else {
			comment(T("reproduce.bench", "Workload", w.ID, "From", w.Bench.From(repoPath)))
			b.WriteString(strings.TrimRight(w.Bench.Value, "\n"))
			b.WriteByte('\n')
		}
		if w.Echo.Known() {
			comment(T("reproduce.echo", "From", w.Echo.From(repoPath)))
			comment(w.Echo.Value)
		}
	}
	return b.String()
}
