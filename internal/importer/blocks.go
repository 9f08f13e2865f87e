package importer

// Reading result blocks: the blocks of a fenced result, their labels
// (workloads or configurations) and the errors of failed runs.

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/serving"
)

func (p *parser) results(c *runCtx, f *fence) error {
	r := c.cur
	txt := f.Text()
	blocks, _ := benchlog.Parse(p.file, strings.NewReader(txt+"\n"))
	var good []benchlog.Block
	for _, b := range blocks {
		if b.Format != benchlog.FormatUnknown && b.Format != benchlog.FormatError {
			good = append(good, b)
		}
	}
	if len(good) == 0 {
		var lines []string
		for _, l := range f.content {
			l = strings.TrimSpace(l)
			l = strings.TrimSpace(strings.TrimPrefix(l, "#"))
			if l != "" {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			return p.fail(f.open, "this benchmark result is empty: expected result blocks or the error the run printed")
		}
		if strings.Contains(txt, "Serving Benchmark Result") {
			return p.fail(f.open, "a result block here could not be read (see perflab parse); fix the paste so the block is complete")
		}
		r.Error = strings.Join(lines, "\n")
		return nil
	}
	prevEnd := 0
	type placed struct {
		label, text string
		line        int
		labelLine   int
	}
	var all []placed
	for _, b := range good {
		label, labelLine := "", 0
		for i := b.Line - 1; i > prevEnd; i-- {
			l := strings.TrimSpace(f.content[i-1])
			if strings.HasPrefix(l, "#") {
				label, labelLine = strings.TrimSpace(strings.TrimLeft(l, "#")), f.first+i-1
				break
			}
			if l != "" {
				if caption(l) {
					label, labelLine = l, f.first+i-1 // "1k random input + 2k generation"
				}
				break
			}
		}
		end := b.EndLine
		if end <= 0 || end > len(f.content) {
			end = len(f.content)
		}
		for end > b.Line && strings.TrimSpace(f.content[end-1]) == "" {
			end--
		}
		// A benchmark command pasted above the block names its workload.
		if b.Line-1 > prevEnd {
			for _, ev := range commandsIn(&fence{content: f.content[prevEnd : b.Line-1], first: 1}, nil) {
				if ev.kind == "bench" {
					c.bench = ev.cmd.text
				}
			}
		}
		prevEnd = end
		all = append(all, placed{label: label, text: strings.Join(f.content[b.Line-1:end], "\n"), line: f.first + b.Line - 1, labelLine: labelLine})
	}
	// Labels that are flags name configurations; the others name workloads.
	configs := false
	for _, a := range all {
		if strings.HasPrefix(a.label, "-") {
			configs = true
		}
	}
	labels := make([]string, len(all))
	for i, a := range all {
		labels[i] = a.label
	}
	if flag := p.valueLabels(labels, r.Command); !configs && !c.inOther && flag != "" {
		// "# triton" under a command with --attention-backend triton: each
		// label is a value of that flag, not a workload.
		for i := range all {
			all[i].label = flag + " " + all[i].label
		}
		configs = true
	}
	if configs {
		own := -1
		for i, a := range all {
			if own < 0 && labelInCommand(a.label, r.Command) {
				own = i
			}
		}
		if own < 0 {
			own = 0
		}
		for i, a := range all {
			w := p.contextWorkload(c)
			if i == own {
				if r.step != nil && len(all) > 1 {
					r.Name = a.label
				}
				r.Logs = append(r.Logs, Log{Workload: w.ID, Text: a.text, Line: a.line})
				continue
			}
			// Its command is the printed one with the label's setting: its
			// source is the printed command's line.
			d := &Run{Name: a.label, Engine: r.Engine, Command: deriveCommand(r.Command, a.label), Derived: true,
				Line: r.Line, source: p.file, step: r.step}
			d.Logs = []Log{{Workload: w.ID, Text: a.text, Line: a.line}}
			c.derived = append(c.derived, d)
		}
		return nil
	}
	for _, a := range all {
		var w *Workload
		if a.label != "" {
			w = p.labelWorkload(a.label, true)
		}
		if w == nil && c.profile == nil && !(c.inOther && c.workload != nil) {
			w = p.commandWorkload(c.bench)
		}
		if w == nil {
			w = p.contextWorkload(c)
		}
		dup := false
		for _, lg := range r.Logs {
			if lg.Workload == w.ID {
				dup = true
			}
		}
		if dup {
			p.s.note(a.line, "a second block for workload %s in the same run; only the first is imported", w.ID)
			continue
		}
		r.Logs = append(r.Logs, Log{Workload: w.ID, Text: a.text, Line: a.line})
	}
	return nil
}

// commandWorkload is the workload a benchmark command names (a random
// dataset with both lengths, or ShareGPT), or nil when it names none.
func (p *parser) commandWorkload(cmd string) *Workload {
	switch benchDataset(cmd) {
	case "random":
		in := firstInt(cmd, "--random-input-len", "--random-input", "--input-len")
		out := firstInt(cmd, "--random-output-len", "--random-output", "--output-len")
		if in > 0 && out > 0 {
			return p.random(in, out, "")
		}
	case "sharegpt":
		if n := firstInt(cmd, "--max-concurrency"); n > 0 {
			return p.labelWorkload(fmt.Sprintf("sharegpt bs=%d", n), true)
		}
		return p.sharegpt()
	}
	return nil
}

// caption reports whether a plain line just above a result block names it
// ("1k random input + 2k generation"): short prose, not a command, an
// option or a rule.
func caption(l string) bool {
	return len(l) <= 80 && !strings.Contains(l, "--") && !strings.Contains(l, "==") && !strings.HasPrefix(l, "$") &&
		!strings.Contains(l, ":") && strings.ContainsAny(strings.ToLower(l), "abcdefghijklmnopqrstuvwxyz")
}

// contextWorkload is the workload of a block that carries no workload label.
func (p *parser) contextWorkload(c *runCtx) *Workload {
	switch {
	case c.workload != nil && c.inOther:
		return c.workload
	case c.profile != nil:
		return c.profile
	}
	if c.step != nil {
		p.unlabelled = true
	}
	return p.defaultWorkload()
}

// valueLabels is the flag whose values the labels of a run's blocks are
// ("triton" and "flashinfer" under --attention-backend triton), or "" when
// a label is missing, names a workload, or no flag of the command has one
// of them as its value.
func (p *parser) valueLabels(labels []string, command string) string {
	flag := ""
	for _, l := range labels {
		if l == "" || p.labelWorkload(l, false) != nil {
			return ""
		}
		for _, f := range serving.Parse(command).Flags {
			if f.Value != "" && strings.EqualFold(f.Value, l) {
				flag = f.Printed
			}
		}
	}
	return flag
}

// labelFlags splits a label such as "--max_num_tokens=16384" or
// "--speculative-num-steps 4 --speculative-eagle-topk 8" into its flags and
// values ("" for a switch).
func labelFlags(label string) [][2]string {
	var out [][2]string
	f := strings.Fields(label)
	for i := 0; i < len(f); i++ {
		if !strings.HasPrefix(f[i], "-") {
			continue
		}
		name, val, ok := strings.Cut(f[i], "=")
		if !ok && i+1 < len(f) && !strings.HasPrefix(f[i+1], "-") {
			val = f[i+1]
			i++
		}
		out = append(out, [2]string{name, val})
	}
	return out
}

// labelInCommand reports whether a label such as "--max_num_tokens=16384"
// or "--max-num-batched-tokens 4096" is what the command sets: every flag
// of the label with its value.
func labelInCommand(label, command string) bool {
	flags := labelFlags(label)
	if len(flags) == 0 {
		return false
	}
	for _, fv := range flags {
		if fv[1] == "" {
			if !strings.Contains(command, fv[0]) {
				return false
			}
		} else if flagValue(command, fv[0]) != fv[1] {
			return false
		}
	}
	return true
}

// deriveCommand rebuilds the command a label such as "--max_num_tokens=32768"
// names from the printed command of the same section: each flag of the
// label takes the label's value, and a flag the command lacks is added.
func deriveCommand(command, label string) string {
	for _, fv := range labelFlags(label) {
		re := regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(fv[0]) + `([ =])(\S+)`)
		switch {
		case fv[1] == "" && strings.Contains(command, fv[0]):
		case fv[1] == "":
			command += " " + fv[0]
		case re.MatchString(command):
			command = re.ReplaceAllString(command, "${1}"+fv[0]+"${2}"+fv[1])
		default:
			command += " " + fv[0] + " " + fv[1]
		}
	}
	return command
}
