package check

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

// RuleGuess flags what perflab add or record inferred and a person has not
// confirmed: a value still marked "# guessed ...", or a placeholder such as
// an unknown GPU, which a report would otherwise publish as a fact.
const RuleGuess = "unreviewed-guess"

// guessRules reports the unconfirmed guesses: each one made from nothing
// at its line, and the others of a file in one problem at the first of
// them, naming each. It cannot be acknowledged: confirming a guess is
// deleting its comment. A study imported from a published document is
// held to what the document states: what it leaves unsaid is a warning.
func guessRules(s *study.Study, add func(Diagnostic)) {
	severity := Error
	if s.Source != nil {
		severity = Warning
	}
	var files []string
	read := map[string][]study.Guess{}
	marked := map[string]bool{} // "key=value" of study.yaml's guesses
	for _, g := range s.Guesses {
		if g.Pos.File == s.Pos.File {
			marked[g.Key+"="+g.Value] = true
		}
		if strings.HasPrefix(g.Comment, "guessed from nothing") {
			add(Diagnostic{Rule: RuleGuess, Severity: severity, File: g.Pos.File, Line: g.Pos.Line,
				Message: fmt.Sprintf("%s: %s was %s, and nobody has confirmed it yet: write the value that holds, then delete the comment", g.Key, g.Value, strings.TrimSuffix(g.Comment, ": check"))})
			continue
		}
		if read[g.Pos.File] == nil {
			files = append(files, g.Pos.File)
		}
		read[g.Pos.File] = append(read[g.Pos.File], g)
	}
	for _, file := range files {
		gs := read[file]
		var each []string
		for _, g := range gs {
			each = append(each, fmt.Sprintf("%s: %s (line %d, %s)", g.Key, g.Value, g.Pos.Line, strings.TrimSuffix(g.Comment, ": check")))
		}
		add(Diagnostic{Rule: RuleGuess, Severity: severity, File: file, Line: gs[0].Pos.Line,
			Message: fmt.Sprintf("%d values were inferred and nobody has confirmed them yet: %s; check each against what was run, correct it if it is wrong, then delete its comment", len(gs), strings.Join(each, "; "))})
	}
	if unknown(s.Hardware.GPU) && !marked["gpu="+s.Hardware.GPU] {
		add(Diagnostic{Rule: RuleGuess, Severity: severity, File: s.Pos.File, Line: s.Hardware.Pos.Line,
			Message: fmt.Sprintf("hardware.gpu is %q, and the report would publish it as the GPU: write the GPU model as its maker names it, e.g. NVIDIA A100 SXM 80GB", s.Hardware.GPU)})
	}
	for _, e := range s.Engines {
		if unknown(e.Version) && !marked["version="+e.Version] {
			add(Diagnostic{Rule: RuleGuess, Severity: severity, File: s.Pos.File, Line: max(e.VersionLine, e.Pos.Line),
				Message: fmt.Sprintf("the version of %s is %q: write the version you ran (the engine prints it at start-up, or pip show / the image tag gives it)", e.Name, e.Version)})
		}
	}
}

// unknown is a placeholder where a fact belongs.
func unknown(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v == "unknown" || v == "unknown gpu"
}
