package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/perflab/perflab/internal/study"
)

// Budgets of one page. Templates and locale messages come from pull
// requests: a nested {{range}} could write gigabytes or loop for hours. The
// largest page of the repository's reports is about 50 KB.
const maxPageBytes = 16 << 20

// maxPageTime is a variable for the tests only.
var maxPageTime = 10 * time.Second

// errRunaway marks a page over its budget.
var errRunaway = errors.New("a template or locale message runs away")

// budgetWriter fails once a page grows past maxPageBytes or its time is up;
// the failed write stops text/template's execution.
type budgetWriter struct {
	buf     *bytes.Buffer
	expired atomic.Bool
}

func (w *budgetWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > maxPageBytes {
		return 0, fmt.Errorf("the page exceeds %d MiB: %w", maxPageBytes>>20, errRunaway)
	}
	if w.expired.Load() {
		return 0, fmt.Errorf("the page took more than %v: %w", maxPageTime, errRunaway)
	}
	return w.buf.Write(p)
}

// executeBounded runs templates (run) into buf within the page's
// budgets. A template that loops without writing cannot be stopped from
// outside: it is left running, and the page fails after maxPageTime.
func executeBounded(buf *bytes.Buffer, run func(io.Writer) error) error {
	w := &budgetWriter{buf: buf}
	done := make(chan error, 1)
	go func() { done <- run(w) }()
	timer := time.NewTimer(maxPageTime)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		w.expired.Store(true)
		return fmt.Errorf("the page took more than %v: %w", maxPageTime, errRunaway)
	}
}

// largestLog names, after a page over its budget (err), the study's
// largest log and its size: the work a page does on its logs (their
// recipes) is done before its template runs, yet a page of large logs
// is also a large page, and the log is what the pull request changed,
// more often than the template.
func largestLog(err error, s *study.Study, repoPath func(string) string) string {
	lg := s.LargestLog()
	if !errors.Is(err, errRunaway) || lg == nil {
		return ""
	}
	return fmt.Sprintf("; the study's largest log is %s (%.1f MiB): if the pull request changed no template or locale, shorten that log", repoPath(lg.File), float64(len(lg.Raw))/(1<<20))
}
