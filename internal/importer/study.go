// Package importer turns a published Markdown optimisation report of the
// GPUStack performance-lab family into a perflab study folder (see
// docs/results-format.md), without retyping a number.
//
// Import reads one report and returns the study in memory; Write puts it on
// disk atomically. Four structures of the family are read (see
// ../shared/corpus/gpustack/README.md): hand-written throughput and latency
// reports (serving-script and benchmark-result admonitions, "Result:"
// lines, a summary of options and "Other Benchmark Cases") and generated
// throughput and latency reports (benchmark profiles in YAML, "- Profile:"
// and "- Backend Parameters:" lists, "- Summary:" lines). A page of any
// other layout that pastes result blocks is read by its evidence (see
// importEvidence): each block a run's log, paired with the commands
// printed before it, every inferred value marked as a guess.
//
// Everything printed is copied byte for byte: serving commands, result
// blocks, error messages and every figure the report states, each figure as
// a claim with the report line it came from. The importer never judges a
// number: a wrong percentage is imported as printed and perflab check finds
// it. Import fails, with the report's file and line, only on what it cannot
// read. It neither prints nor writes outside Write.
package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

// Study is an imported study, ready to be written.
type Study struct {
	ID     string
	Kind   string // "" or "article": tables without logs
	Source string // the report's file name, used in claim and run sources
	// SourceTitle and SourceURL cite the report in study.yaml's source:
	// its title (its first heading) and its web address, when known.
	SourceTitle, SourceURL string
	Model                  string
	GPU                    string
	GPUsPerNode,
	Nodes int
	Objective   string
	Engines     []Engine
	Tool        string
	Commands    string
	Workloads   []*Workload
	Baseline    []string
	Recommended []string
	Steps       []*Step
	Claims      []Claim
	Runs        []*Run
	// Notes are things the importer could not place, with their lines;
	// the import still succeeds.
	Notes []string
	// Unread counts the figures of the page's tables and prose that no
	// claim holds: check cannot verify them (see unreadFigures).
	Unread  int
	runIDs  ids               // given by newRunID
	guessed map[string]string // study.yaml fields guessed, with where from
}

// Engine is an inference engine of the study.
type Engine struct{ ID, Name, Version string }

// Workload is one benchmark case.
type Workload struct {
	ID                string
	Dataset           string
	InputLen          int
	OutputLen         int
	NumPrompts        int
	Seed              *int
	MaxConcurrency    *int
	Command           string
	Main              bool
	rate              float64  // request rate of a generated profile, 0 if none
	line              int      // line of the benchmark command it came from
	aliases           []string // normalised names the report uses for it
	alsoCommands      []string // other commands that sent its requests elsewhere (sameWorkload)
	firstSeen, tabled int
}

// Step is one optimisation step.
type Step struct {
	ID        string
	Title     string
	Line      int
	Runs      []string
	Reference string
}

// Claim is one printed figure.
type Claim struct {
	Kind     string
	Workload string
	Step     string
	Config   string
	Run      string
	From, To string // table claims
	Compare  string // table claims: change (""), difference, ratio, share or same
	Better   string // table claims: lower or higher, when the metric says
	Printed  string
	Line     int
}

// Run is one serving configuration.
type Run struct {
	ID         string
	Name       string
	Engine     string
	Command    string
	Derived    bool
	Parameters string
	GPUs       int
	Error      string
	Line       int   // report line of the command (or parameters)
	alsoAt     []int // other lines the same configuration and result are printed on
	Logs       []Log
	source     string
	step       *Step
	role       string            // "baseline" or "optimized" for the runs of Other Benchmark Cases
	guessed    map[string]string // run.yaml fields guessed, with where from
}

// Log is one result block of a run, under the workload its label names.
type Log struct {
	Workload string
	Text     string
	Line     int // report line of the block's first line
}

// Error is a problem that stops an import, at a line of the report.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// NotAStudy is the answer for a page with nothing to import: an overview or
// index page of reports, with neither a code block (commands, benchmark
// output), nor a table of figures, nor a heading of a report's sections.
type NotAStudy struct{ File string }

func (e *NotAStudy) Error() string {
	return e.File + ": not a study, nothing to import (no code block and no table: an overview or index page)"
}

// notAStudy reports whether a page has no code fence, no table row and no
// heading that a report has (setup, conclusion, benchmark, results): a
// broken report is an error, an index page a notice.
func notAStudy(items []line) bool {
	for _, it := range items {
		t := strings.TrimSpace(it.text)
		if it.fence != nil || strings.HasPrefix(t, "|") {
			return false
		}
		if strings.HasPrefix(t, "#") && reportHeading.MatchString(t) {
			return false
		}
	}
	return true
}

var reportHeading = regexp.MustCompile(`(?i)setup|conclusion|benchmark|result`)

var idClean = regexp.MustCompile(`[^a-z0-9._-]+`)

// StudyID derives a study id from a report's file name:
// "qwen3-32b__a100.md" becomes "qwen3-32b-a100". A name longer than a
// study id may be is shortened, with 8 hex digits of its hash.
func StudyID(file string) string {
	base := strings.TrimSuffix(path.Base(strings.ReplaceAll(file, "\\", "/")), ".md")
	id := strings.ToLower(strings.ReplaceAll(base, "__", "-"))
	id = strings.Trim(idClean.ReplaceAllString(id, "-"), "-._")
	if id == "" {
		id = "study"
	}
	if len(id) > study.MaxIDLength {
		// Cut at a word, then tell apart the reports that share the cut.
		sum := sha256.Sum256([]byte(base))
		tail := "-" + hex.EncodeToString(sum[:4])
		id = id[:study.MaxIDLength-len(tail)]
		if i := strings.LastIndexByte(id, '-'); i > study.MaxIDLength/2 {
			id = id[:i]
		}
		id = strings.TrimRight(id, "-._") + tail
	}
	return id
}

func (s *Study) run(id string) *Run {
	for _, r := range s.Runs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

func (s *Study) workload(id string) *Workload {
	for _, w := range s.Workloads {
		if w.ID == id {
			return w
		}
	}
	return nil
}

func (s *Study) mainWorkload() *Workload {
	for _, w := range s.Workloads {
		if w.Main {
			return w
		}
	}
	return nil
}

// newRunID returns a unique run id built from a name.
func (s *Study) newRunID(name string) string {
	base := slug(name)
	if base == "" {
		base = "run"
	}
	if !startsWord.MatchString(base) {
		base = "run-" + base
	}
	return s.runIDs.unique(base)
}

func (s *Study) addClaim(c Claim) { s.Claims = append(s.Claims, c) }

func (s *Study) note(line int, format string, args ...any) {
	s.Notes = append(s.Notes, fmt.Sprintf("%s:%d: %s", s.Source, line, fmt.Sprintf(format, args...)))
}
