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

// guessRules reports each unconfirmed guess at its line. It cannot be
// acknowledged: confirming it is deleting the comment.
func guessRules(s *study.Study, add func(Diagnostic)) {
	for _, g := range s.Guesses {
		add(Diagnostic{Rule: RuleGuess, Severity: Error, File: g.Pos.File, Line: g.Pos.Line,
			Message: fmt.Sprintf("%s: %s was %s, and nobody has confirmed it yet: check it against what you ran, correct it if it is wrong, then delete the comment", g.Key, g.Value, strings.TrimSuffix(g.Comment, ": check"))})
	}
	if unknown(s.Hardware.GPU) {
		add(Diagnostic{Rule: RuleGuess, Severity: Error, File: s.Pos.File, Line: s.Hardware.Pos.Line,
			Message: fmt.Sprintf("hardware.gpu is %q, and the report would publish it as the GPU: write the GPU model as its maker names it, e.g. NVIDIA A100 SXM 80GB", s.Hardware.GPU)})
	}
	for _, e := range s.Engines {
		if unknown(e.Version) {
			add(Diagnostic{Rule: RuleGuess, Severity: Error, File: s.Pos.File, Line: max(e.VersionLine, e.Pos.Line),
				Message: fmt.Sprintf("the version of %s is %q: write the version you ran (the engine prints it at start-up, or pip show / the image tag gives it)", e.Name, e.Version)})
		}
	}
}

// unknown is a placeholder where a fact belongs.
func unknown(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v == "unknown" || v == "unknown gpu"
}
