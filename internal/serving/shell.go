package serving

import "strings"

// ShellCommand is one command of a shown text, as the shell reads it.
type ShellCommand struct {
	Text string // its lines, joined by the backslashes that continue them
	Last int    // the index of its last line in the text
}

// ShellCommands splits a text into the commands a shell runs: a command
// goes on while its lines end in a backslash, and a blank or comment line
// ends it.
func ShellCommands(text string) []ShellCommand {
	lines := strings.Split(text, "\n")
	var out []ShellCommand
	start, last := -1, -1
	end := func() {
		out = append(out, ShellCommand{Text: strings.Join(lines[start:last+1], "\n"), Last: last})
		start = -1
	}
	for i, raw := range lines {
		line := strings.TrimRight(raw, "\r")
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			if start >= 0 {
				end()
			}
			continue
		}
		if start < 0 {
			start = i
		}
		last = i
		if !strings.HasSuffix(line, "\\") {
			end()
		}
	}
	if start >= 0 {
		end()
	}
	return out
}
