package study

import (
	"fmt"
	"strings"
)

// MaxIDLength bounds every id that becomes part of a file name: a study,
// run, workload, step or history version. The longest file a build writes
// from an id is "history-<run>.svg" or "step-<step>.svg", and a file name
// may be 255 bytes on the usual file systems; 64 leaves room for both.
const MaxIDLength = 64

// MaxWorkloads bounds the workloads of a study: each is a row of its
// tables and a bar of its charts, and a page of thousands helps no reader.
const MaxWorkloads = 1000

// idRule says in words what idPattern accepts, for error messages.
const idRule = "use lower-case letters, digits, '.', '_' and '-', starting with a letter or a digit"

// Ids are ASCII only, lower case: two ids are then one file on a
// case-insensitive file system (macOS, Windows) or after Unicode
// normalisation only when they are equal, which the loader already refuses.

// ReservedStudyIDs are the names a study folder cannot take because the
// site already holds a file or folder of that name where the study's own
// would go: <lang>/index.html and <lang>/sitemap.xml beside
// <lang>/<study>/, data/all.csv and data/all.json beside
// data/<study>.csv, and the folder data/analysis/ beside data/<study>/. A
// test of package pipeline builds a site and checks this list against the
// files it holds.
var ReservedStudyIDs = []string{"all", "analysis", "index.html", "sitemap.xml"}

// reservedStudySuffix: a study's Markdown is <lang>/<study>.md, so a study
// named "x.md" would put its folder where study x has its Markdown.
const reservedStudySuffix = ".md"

// idProblem says what is wrong with an id of the given kind ("study",
// "run", "workload", "step"), or "" when it is valid.
func idProblem(kind, id string) string {
	switch {
	case id == "":
		return ""
	case len(id) > MaxIDLength:
		return fmt.Sprintf("%s id %q is %d bytes long; the limit is %d, as it becomes part of file names: shorten it", kind, truncate(id, 40), len(id), MaxIDLength)
	case !idPattern.MatchString(id):
		return fmt.Sprintf("%s id %q is not a valid id: %s", kind, id, idRule)
	}
	if kind != "study" {
		return ""
	}
	for _, r := range ReservedStudyIDs {
		if id == r {
			return fmt.Sprintf("study id %q is reserved: the site already has a file of that name next to each study's pages; rename the folder", id)
		}
	}
	if strings.HasSuffix(id, reservedStudySuffix) {
		return fmt.Sprintf("study id %q ends in %q, the name of a study's Markdown report: rename the folder", id, reservedStudySuffix)
	}
	return ""
}

// ValidID reports whether id is a valid id of the given kind ("study",
// "run", "workload", "step"), with the reason when it is not.
func ValidID(kind, id string) error {
	if id == "" {
		return fmt.Errorf("%s id is empty", kind)
	}
	if msg := idProblem(kind, id); msg != "" {
		return fmt.Errorf("%s", msg)
	}
	return nil
}

// id reads a required id field and checks it against the id grammar.
func (m *mapping) id(key, what string) string {
	v := m.str(key, what, true)
	if f := m.fields[key]; f != nil && len(f.Value) > maxName {
		return v // str said it is too long
	}
	if msg := idProblem(what, v); msg != "" {
		m.l.problem(m.pos(key), "%s", msg)
	}
	return v
}
