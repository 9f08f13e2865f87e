package zzprof

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/importer"
)

func TestImportProf(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PROF_STEPS"))
	if n == 0 {
		t.Skip()
	}
	src, _ := os.ReadFile("../importer/testdata/handwritten_throughput.md")
	s := string(src)
	i := strings.Index(s, "### Summary of Optimization Options")
	var b strings.Builder
	for k := 0; k < n; k++ {
		b.WriteString("### " + os.Getenv("PROF_TITLE") + strconv.Itoa(k%2) + "\n\nSome text.\n\n")
	}
	s = s[:i] + b.String() + s[i:]
	start := time.Now()
	_, err := importer.Import("r.md", []byte(s))
	t.Logf("%d steps: %v (err %v)", n, time.Since(start), err)
}
