package zzprof

import (
	"os"
	"testing"

	"github.com/perflab/perflab/internal/pipeline"
	"github.com/perflab/perflab/internal/site"
)

func TestProf(t *testing.T) {
	dir := os.Getenv("PROF_DIR")
	if dir == "" {
		t.Skip()
	}
	d := pipeline.Dirs{Results: dir + "/results", Content: dir + "/content", Locales: dir + "/locales", Templates: dir + "/templates"}
	w, err := site.Create(t.TempDir() + "/site")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Build(d, w); err != nil {
		t.Fatal(err)
	}
	w.Abort()
}
