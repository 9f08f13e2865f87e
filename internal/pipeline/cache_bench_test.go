package pipeline

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/perflab/perflab/internal/benchtree"
)

// cacheOf1000 is the cache of a 1,000-study site: the cache of four
// studies built from the repository's, each entry repeated under new ids.
func cacheOf1000(b *testing.B) *cacheState {
	b.Helper()
	dir := b.TempDir()
	d := Dirs{Results: filepath.Join(dir, "results"), Content: filepath.Join(dir, "content"),
		Locales: repoDirs.Locales, Templates: repoDirs.Templates}
	if _, err := benchtree.Make(repoDirs.Results, repoDirs.Content, d.Results, d.Content, 4); err != nil {
		b.Fatal(err)
	}
	var builder Builder
	if _, err := builder.Build(d, filepath.Join(dir, "site")); err != nil {
		b.Fatal(err)
	}
	st := *builder.state
	four := st.Studies
	st.Studies = nil
	for i := range 1000 {
		cs := four[i%len(four)]
		cs.ID = fmt.Sprintf("%s-%04d", cs.ID, i)
		st.Studies = append(st.Studies, cs)
	}
	return &st
}

// BenchmarkCacheFile writes and reads back the build cache of a
// 1,000-study site, its checksum included.
func BenchmarkCacheFile(b *testing.B) {
	st := cacheOf1000(b)
	dir := b.TempDir()
	if err := writeCache(dir, st); err != nil {
		b.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(dir, cacheFile))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(info.Size())
	b.ReportAllocs()
	for b.Loop() {
		if err := writeCache(dir, st); err != nil {
			b.Fatal(err)
		}
		if readCache(dir) == nil {
			b.Fatal("the cache just written was not trusted")
		}
	}
}

// BenchmarkCacheSum is the checksum alone over that cache's payload.
func BenchmarkCacheSum(b *testing.B) {
	st := cacheOf1000(b)
	dir := b.TempDir()
	if err := writeCache(dir, st); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, cacheFile))
	if err != nil {
		b.Fatal(err)
	}
	payload := data[sha256.Size:]
	b.SetBytes(int64(len(payload)))
	for b.Loop() {
		sha256.Sum256(payload)
	}
}
