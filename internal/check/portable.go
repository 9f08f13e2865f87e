package check

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/perflab/perflab/internal/plain"
)

// RulePortableName: every file and folder under results/, content/,
// locales/ and templates/ has a name that every system a contributor
// checks the repository out on can hold as it is: no two names of a
// folder differ only by case or Unicode normalisation (macOS and Windows
// keep one), no Windows device name (con, nul, com1, lpt1, with or
// without an extension), no character Windows refuses (: < > " \ | ? *,
// control characters) or that hides itself, and no trailing dot or space.
// Error.
const RulePortableName = "portable-name"

// TreePath is an entry of a project folder: the path diagnostics show,
// and the path inside the folder, whose parts are the names checked.
type TreePath struct {
	Shown, Rel string
}

// PortableNames checks the name of each entry, and the names of the
// entries of each folder against each other.
func PortableNames(paths []TreePath) []Diagnostic {
	var out []Diagnostic
	first := map[string]string{} // parent + folded name -> the name seen first
	fold := cases.Fold()
	for _, p := range paths {
		name := path.Base(p.Rel)
		if msg := nameProblem(name); msg != "" {
			out = append(out, Diagnostic{Rule: RulePortableName, Severity: Error, File: p.Shown,
				Message: fmt.Sprintf("name %q %s: rename it", name, msg)})
		}
		if !utf8.ValidString(name) {
			continue
		}
		key := path.Dir(p.Shown) + "/" + fold.String(norm.NFC.String(name))
		if other, ok := first[key]; ok && other != name {
			out = append(out, Diagnostic{Rule: RulePortableName, Severity: Error, File: p.Shown,
				Message: fmt.Sprintf("names %q and %q in one folder differ only by case or Unicode normalisation: on macOS and Windows one of them replaces the other; rename or remove one", other, name)})
			continue
		}
		first[key] = name
	}
	return out
}

// windowsDevices are the names Windows gives to devices, with or without
// an extension (the superscript digits count as digits there).
var windowsDevices = func() map[string]bool {
	m := map[string]bool{"con": true, "prn": true, "aux": true, "nul": true, "conin$": true, "conout$": true}
	for _, d := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³"} {
		m["com"+d], m["lpt"+d] = true, true
	}
	return m
}()

// nameProblem says why another system cannot hold name; "" when it can.
func nameProblem(name string) string {
	if !utf8.ValidString(name) {
		return "is not UTF-8, which macOS refuses and git shows escaped"
	}
	for _, r := range name {
		switch {
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("holds a control character (U+%04X), which Windows refuses and a listing does not show", r)
		case strings.ContainsRune(`:<>"\|?*`, r):
			return fmt.Sprintf("holds %q, which Windows refuses in a name (and macOS shows ':' as '/')", r)
		case plain.Unsafe(r):
			return fmt.Sprintf("holds %s, which hides or reorders text in a listing", RuneName(r))
		}
	}
	stem, _, _ := strings.Cut(name, ".")
	if windowsDevices[strings.ToLower(strings.TrimRight(stem, " "))] {
		return "is a Windows device name (con, prn, aux, nul, com1-9, lpt1-9, with or without an extension), which no Windows checkout can hold"
	}
	if strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		return "ends in a dot or a space, which Windows drops, so it would become another name"
	}
	return ""
}
