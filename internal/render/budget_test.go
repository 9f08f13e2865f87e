package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/perflab/perflab/internal/study"
)

func TestExecuteBoundedOutput(t *testing.T) {
	tmpl := template.Must(template.New("report.md.tmpl").Parse(`{{range 100000}}{{range 100000}}xxxxxxxx{{end}}{{end}}`))
	var buf bytes.Buffer
	err := executeBounded(&buf, func(w io.Writer) error { return tmpl.Execute(w, nil) })
	if !errors.Is(err, errRunaway) || !strings.Contains(err.Error(), "exceeds 16 MiB") {
		t.Fatalf("err %v, want the page over its size budget", err)
	}
	if buf.Len() > maxPageBytes {
		t.Errorf("%d bytes written, over the budget", buf.Len())
	}
}

func TestExecuteBoundedTime(t *testing.T) {
	defer func(d time.Duration) { maxPageTime = d }(maxPageTime)
	maxPageTime = 50 * time.Millisecond
	// Writes nothing for a while: only the clock can stop it.
	tmpl := template.Must(template.New("report.md.tmpl").Parse(`{{range 3000000}}{{end}}x`))
	var buf bytes.Buffer
	err := executeBounded(&buf, func(w io.Writer) error { return tmpl.Execute(w, nil) })
	if !errors.Is(err, errRunaway) || !strings.Contains(err.Error(), "took more than 50ms") {
		t.Fatalf("err %v, want the page over its time budget", err)
	}
}

func TestExecuteBoundedOrdinaryPage(t *testing.T) {
	tmpl := template.Must(template.New("report.md.tmpl").Parse(`{{range 3}}ok {{end}}`))
	var buf bytes.Buffer
	if err := executeBounded(&buf, func(w io.Writer) error { return tmpl.Execute(w, nil) }); err != nil || buf.String() != "ok ok ok " {
		t.Fatalf("%q, %v", buf.String(), err)
	}
}

// A page over its budget names the study's largest log, which a pull
// request is more likely to have changed than the template named first.
func TestRunawayNamesLargestLog(t *testing.T) {
	s := &study.Study{Runs: []*study.Run{
		{Logs: []study.Log{{File: "results/s/runs/a/w.log", Raw: make([]byte, 10)}}},
		{Logs: []study.Log{{File: "results/s/runs/b/w.log", Raw: make([]byte, 3<<20)}, {File: "results/s/runs/b/x.log", Raw: nil}}},
	}}
	same := func(f string) string { return f }
	runaway := fmt.Errorf("the page took more than 10s: %w", errRunaway)
	if got := largestLog(runaway, s, same); !strings.Contains(got, "results/s/runs/b/w.log (3.0 MiB)") {
		t.Errorf("%q does not name the largest log", got)
	}
	if got := largestLog(errors.New("template: bad"), s, same); got != "" {
		t.Errorf("%q: a template error is not a page over its budget", got)
	}
}
