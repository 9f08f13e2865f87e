package render

import (
	"bytes"
	"os"
	"testing"
)

func BenchmarkZZ(b *testing.B) {
	src, err := os.ReadFile(os.Getenv("ZZPAGE"))
	if err != nil {
		b.Skip(err)
	}
	md := reportMarkdown(plainLinks{}, fastTables{})
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		_ = md.Convert(src, &buf)
	}
}
