package check

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// RuleContinuation: a command read as the shell reads it.
const RuleContinuation = "command-continuation"

// optionLine starts with an option (-tp, --model), not a list dash.
var optionLine = regexp.MustCompile(`^--?[A-Za-z]`)

// shownCommand is a command a study shows: where, and what it belongs to.
type shownCommand struct {
	text    string
	file    string
	first   int // line of the command's first line in file
	subject string
	what    string // "run vllm", "the benchmark commands"
	ownGPUs bool   // gpu-fit already counts this command's GPUs
}

// shownCommands lists every command of a study: each run's and history
// version's serving command, the benchmark commands, each workload's
// command and the recommended command a claim prints.
func shownCommands(s *study.Study) []shownCommand {
	var out []shownCommand
	for _, r := range s.Runs {
		out = append(out, shownCommand{r.Command, r.Pos.File, blockFirst(r.Command, commandLine(r)), r.ID, "run " + r.ID, true})
		for _, h := range r.History {
			if h.Command != "" {
				out = append(out, shownCommand{h.Command, h.Pos.File, blockFirst(h.Command, h.Pos.Line), r.ID + "@" + h.Version.Raw, "run " + r.ID + " at " + h.Version.Raw, false})
			}
		}
	}
	if c := s.Benchmark.Commands; c != "" {
		out = append(out, shownCommand{c, s.Pos.File, blockFirst(c, s.Benchmark.CommandsLine), "benchmark/commands", "the benchmark commands", false})
	}
	for _, w := range s.Workloads {
		if w.Command != "" {
			out = append(out, shownCommand{w.Command, s.Pos.File, blockFirst(w.Command, w.Line("command")), "workload/" + w.ID, "workload " + w.ID, false})
		}
	}
	for _, c := range s.Claims {
		if c.Kind == study.ClaimCommand {
			out = append(out, shownCommand{c.Printed, s.Pos.File, c.Pos.Line, "recommended/command", "the recommended command", false})
		}
	}
	return out
}

// blockFirst is the line a field's text starts on: the line after the key
// for a block scalar (several lines), the key's own line otherwise.
func blockFirst(text string, keyLine int) int {
	if strings.Contains(strings.TrimRight(text, "\n"), "\n") {
		return keyLine + 1
	}
	return keyLine
}

// shellRules: a line that does not end in a backslash ends its command,
// so options on the lines after it are never passed; and each command
// that starts an engine must fit on the study's GPUs.
func shellRules(s *study.Study, add func(Diagnostic)) {
	checkShown(shownCommands(s), s.Hardware.GPUs(), add)
}

// checkShown reads each command as the shell does, and holds each one
// that starts an engine to the node's GPUs.
func checkShown(cmds []shownCommand, node int, add func(Diagnostic)) {
	for _, c := range cmds {
		lines := strings.Split(c.text, "\n")
		start, last := -1, -1 // first and last line of the shell command being read
		end := func() { start = -1 }
		if !c.ownGPUs {
			for _, sc := range serving.ShellCommands(c.text) {
				gpuShown(c, sc.Text, sc.Last, node, add)
			}
		}
		for i, raw := range lines {
			line := strings.TrimRight(raw, "\r")
			t := strings.TrimSpace(line)
			if t == "" || strings.HasPrefix(t, "#") {
				if start < 0 {
					continue
				}
				// The backslash above joined this line to the command: a
				// blank line ends it, and so does a comment, which runs
				// to the end of the joined line.
				if next := nextCommandLine(lines, i); optionLine.MatchString(next) {
					why := "is followed by a blank line, which ends the command"
					if t != "" {
						why = "is followed by a comment line, and a comment runs to the end of the command"
					}
					add(continuationError(c, last, fmt.Sprintf("%s, so the shell never passes %s", why, firstWord(next)), "delete the line between, or move it out of the command"))
				}
				end()
				continue
			}
			if start < 0 {
				start = i
			}
			last = i
			if strings.HasSuffix(line, "\\") {
				continue
			}
			if strings.HasSuffix(strings.TrimRight(line, " \t"), "\\") {
				add(continuationError(c, i, "ends in a backslash followed by spaces, which escapes a space instead of the line end", joinLines))
			} else if next := nextCommandLine(lines, i); optionLine.MatchString(next) {
				add(continuationError(c, i, fmt.Sprintf("lacks its trailing backslash, so the shell ends the command here and never passes %s", firstWord(next)), joinLines))
			}
			end()
		}
		if start >= 0 {
			add(continuationError(c, last, "ends in a backslash with no line after it: the command is cut off, or a shell joins it to whatever comes next", "delete the backslash, or restore the lines that were lost"))
			end()
		}
	}
}

const joinLines = "end the line with a backslash (and nothing after it), or join the lines"

func continuationError(c shownCommand, i int, what, fix string) Diagnostic {
	return Diagnostic{Rule: RuleContinuation, Severity: Error, File: c.file, Line: c.first + i, Subject: c.subject,
		Message: fmt.Sprintf("line %d of the command of %s %s: %s", i+1, c.what, what, fix)}
}

// nextCommandLine is the next line that is not blank or a comment.
func nextCommandLine(lines []string, i int) string {
	for _, l := range lines[i+1:] {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			return t
		}
	}
	return ""
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

// gpuShown: a serving command shown anywhere must fit on the node, as a
// run's own command must (gpu-fit).
func gpuShown(c shownCommand, text string, last, node int, add func(Diagnostic)) {
	if need, over := report.ShownNeedsMore(text, node); over {
		add(Diagnostic{Rule: RuleGPUFit, Severity: Error, File: c.file, Line: c.first + last, Subject: c.subject,
			Message: fmt.Sprintf("%s shows a command that needs %d GPUs (%s), but the hardware has %d: fix the command or the study's hardware", c.what, need, serving.Parse(text).GPURule(), node)})
	}
}
