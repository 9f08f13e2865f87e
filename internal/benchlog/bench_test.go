package benchlog

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
)

var noisyLog = sync.OnceValue(func() []byte { return makeNoisyLog(100 << 20) })

// makeNoisyLog builds about size bytes of a vLLM server and client log: INFO
// and WARNING lines, redrawn progress bars, a long Namespace dump, and a
// result block every ~25 MB (the first glued to a progress bar).
func makeNoisyLog(size int) []byte {
	var buf bytes.Buffer
	buf.Grow(size + 1<<20)
	block, err := readTestdata("vllm_2026_full.txt")
	if err != nil {
		panic(err)
	}
	ns := "Namespace(" + strings.Repeat("dataset_path='ShareGPT_V3_unfiltered_cleaned_split.json', ", 2000) + ")\n"
	next := 0
	for i := 0; buf.Len() < size; i++ {
		switch {
		case buf.Len() >= next:
			buf.Write(block)
			next += 25 << 20
		case i%5000 == 0:
			buf.WriteString(ns)
		case i%10 == 0:
			for j := 0; j <= 100; j += 2 {
				fmt.Fprintf(&buf, "\r%3d%%|%-50s| %d/1000 [00:%02d<00:%02d, 13.97it/s]", j, strings.Repeat("█", j/2), j*10, j%60, (100-j)%60)
			}
			buf.WriteByte('\n')
		case i%3 == 0:
			fmt.Fprintf(&buf, "WARNING 03-02 10:%02d:%02d [scheduler.py:1560] Sequence group %d is preempted by PreemptionMode.RECOMPUTE mode because there is not enough KV cache space.\n", i/60%60, i%60, i)
		default:
			fmt.Fprintf(&buf, "INFO 03-02 10:%02d:%02d [loggers.py:116] Engine 000: Avg prompt throughput: %d.0 tokens/s, Avg generation throughput: 3051.2 tokens/s, Running: 256 reqs, Waiting: 12 reqs, GPU KV cache usage: 97.1%%\n", i/60%60, i%60, i%9000)
		}
	}
	return buf.Bytes()
}

func BenchmarkParseNoisyLog(b *testing.B) {
	data := noisyLog()
	want := len(blocksOf(b, data))
	if want < 4 {
		b.Fatalf("%d blocks in the generated log", want)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sc := NewScanner("noisy.log", bytes.NewReader(data))
		n := 0
		for sc.Scan() {
			n++
		}
		if sc.Err() != nil || n != want {
			b.Fatalf("%d blocks, err %v", n, sc.Err())
		}
	}
}

func BenchmarkParseBlock(b *testing.B) {
	data, err := readTestdata("vllm_2026_full.txt")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("block.log", bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func blocksOf(tb testing.TB, data []byte) []Block {
	blocks, err := Parse("noisy.log", bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	return blocks
}
