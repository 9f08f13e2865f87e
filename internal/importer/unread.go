package importer

// Counting what an import leaves unchecked: the figures a page prints in
// its tables and prose that no claim holds. perflab check verifies claims
// and logs only, so its "0 errors" says nothing about these; the import
// says how many there are.

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

var (
	// aNumber is a number standing alone, not a part of a name (H100,
	// Qwen3-32B): "1,234.5", "+46.1", "-0.0".
	aNumber = regexp.MustCompile(`(?:^|[^\w.])[+\-−]?\d[\d,]*(?:\.\d+)?`)
	// aFigure is a number of prose with what makes it a result: a unit, a
	// percentage or a ratio ("790.18 ms", "43 %", "8 times", "2.7x").
	aFigure = regexp.MustCompile(`(?i)(?:^|[^\w.])[+\-−]?\d[\d,]*(?:\.\d+)?\s*(?:%|×|x\b|times\b|ms\b|s\b|sec\b|seconds\b|tok/s|tokens/s|req/s|[gt]i?b/s)`)
	// gpuCountRE is a count of devices, not a result: "8x H100", "4 × A100".
	gpuCountRE = regexp.MustCompile(`\d+\s*[x×]\s*(?:NVIDIA\s+|AMD\s+)?[A-Z]`)
	// notProse are the parts of a line that hold no figure of the page's
	// own: inline code and link targets.
	notProse = regexp.MustCompile("`[^`]*`|\\]\\([^)]*\\)|https?://\\S+")
)

// unreadFigures counts the figures of a page's tables (every number of a
// cell but the row's label) and of its prose (numbers with a unit, a
// percentage or a ratio) that no claim read: on each line, the figures
// beyond those its claims hold.
func unreadFigures(items []line, claims []Claim) int {
	held := map[int]int{}
	for _, c := range claims {
		held[c.Line] += len(aNumber.FindAllString(c.Printed, -1))
		if c.From != "" {
			held[c.Line] += 2
		}
	}
	unread := 0
	for i, it := range items {
		if it.fence != nil {
			continue
		}
		n := 0
		if cells := tableRow(it.text); cells != nil {
			header := i == 0 || items[i-1].fence != nil || tableRow(items[i-1].text) == nil
			if header || ruleRow.MatchString(it.text) {
				continue
			}
			for _, c := range cells[min(1, len(cells)):] {
				n += len(aNumber.FindAllString(notProse.ReplaceAllString(stripTags(c), " "), -1))
			}
		} else {
			t := gpuCountRE.ReplaceAllString(notProse.ReplaceAllString(stripTags(it.text), " "), " ")
			n = len(aFigure.FindAllString(t, -1))
		}
		unread += max(0, n-held[it.n])
	}
	return unread
}

// Blocks is how many result blocks the study's runs hold as logs.
func (s *Study) Blocks() int {
	n := 0
	for _, r := range s.Runs {
		n += len(r.Logs)
	}
	return n
}

// Summary says what an import read and what it left unchecked: "read 17
// result blocks as 6 runs; 30 figures in tables and text were not read:
// check cannot verify them".
func (s *Study) Summary() string {
	var b strings.Builder
	if s.Kind == "article" {
		b.WriteString("an article without logs")
	} else {
		b.WriteString("read " + plural(s.Blocks(), "result block") + " as " + plural(len(s.Runs), "run"))
	}
	b.WriteString(", " + plural(len(s.Claims), "printed figure") + " read as claims")
	if n := s.uncheckedClaims(); n > 0 {
		b.WriteString(" (" + strconv.Itoa(n) + " of them tied to no figures they derive from: listed as unchecked)")
	}
	b.WriteString("; ")
	if s.Unread == 0 {
		b.WriteString("no other figure in its tables and text")
	} else {
		verb := " were"
		if s.Unread == 1 {
			verb = " was"
		}
		b.WriteString(plural(s.Unread, "figure") + " in tables and text" + verb + " not read: check cannot verify them, and its \"0 errors\" does not cover them")
	}
	return b.String()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// uncheckedClaims counts the claims of kind unchecked.
func (s *Study) uncheckedClaims() int {
	n := 0
	for _, c := range s.Claims {
		if c.Kind == string(study.ClaimUnchecked) {
			n++
		}
	}
	return n
}
