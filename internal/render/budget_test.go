package render

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"text/template"
	"time"
)

func TestExecuteBoundedOutput(t *testing.T) {
	tmpl := template.Must(template.New("report.md.tmpl").Parse(`{{range 100000}}{{range 100000}}xxxxxxxx{{end}}{{end}}`))
	var buf bytes.Buffer
	err := executeBounded(tmpl, &buf, nil)
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
	err := executeBounded(tmpl, &buf, nil)
	if !errors.Is(err, errRunaway) || !strings.Contains(err.Error(), "took more than 50ms") {
		t.Fatalf("err %v, want the page over its time budget", err)
	}
}

func TestExecuteBoundedOrdinaryPage(t *testing.T) {
	tmpl := template.Must(template.New("report.md.tmpl").Parse(`{{range 3}}ok {{end}}`))
	var buf bytes.Buffer
	if err := executeBounded(tmpl, &buf, nil); err != nil || buf.String() != "ok ok ok " {
		t.Fatalf("%q, %v", buf.String(), err)
	}
}
