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

var saveResult = sync.OnceValue(func() []byte { return makeSaveResult(100_000, 16) })

// makeSaveResult builds a vLLM --save-result JSON (one line, as json.dump
// writes it) with n requests of itl gaps each, every 50th failed.
func makeSaveResult(n, itl int) []byte {
	var buf bytes.Buffer
	buf.WriteString(`{"date": "20250612-101500", "backend": "vllm", "model_id": "Qwen/Qwen3-32B", "num_prompts": `)
	fmt.Fprintf(&buf, `%d, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 256, "duration": 812.123456789, "completed": %d, "failed": %d, `, n, n-n/50, n/50)
	buf.WriteString(`"total_input_tokens": 1000, "total_output_tokens": 1000, "request_throughput": 121.5, "request_goodput:": null, "output_throughput": 1.5, "total_token_throughput": 2.5, `)
	buf.WriteString(`"mean_ttft_ms": 1.5, "median_ttft_ms": 1.5, "std_ttft_ms": 0.5, "p99_ttft_ms": 9.5`)
	arr := func(key string, f func(i int) string) {
		fmt.Fprintf(&buf, `, "%s": [`, key)
		for i := range n {
			if i > 0 {
				buf.WriteString(", ")
			}
			buf.WriteString(f(i))
		}
		buf.WriteByte(']')
	}
	failed := func(i int) bool { return i%50 == 7 }
	arr("input_lens", func(i int) string { return fmt.Sprint(100 + i%900) })
	arr("output_lens", func(i int) string {
		if failed(i) {
			return "0"
		}
		return fmt.Sprint(itl + 1)
	})
	arr("ttfts", func(i int) string {
		if failed(i) {
			return "0.0"
		}
		return fmt.Sprintf("%.17g", 0.05+float64(i%977)/1e4)
	})
	arr("itls", func(i int) string {
		if failed(i) {
			return "[]"
		}
		var b strings.Builder
		b.WriteByte('[')
		for j := range itl {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%.17g", 0.01+float64((i+j)%97)/1e5)
		}
		b.WriteByte(']')
		return b.String()
	})
	arr("generated_texts", func(i int) string {
		return `"The quick brown fox jumps over the lazy dog, \"again\" and again."`
	})
	arr("errors", func(i int) string {
		if failed(i) {
			return `"Bad Request"`
		}
		return `""`
	})
	buf.WriteString("}\n")
	return buf.Bytes()
}

func BenchmarkParseSaveResultJSON(b *testing.B) {
	data := saveResult()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		blocks, err := Parse("big.json", bytes.NewReader(data))
		if err != nil || len(blocks) != 1 || blocks[0].Requests == nil || len(blocks[0].Requests.TTFT) != 98_000 {
			b.Fatalf("err %v, %d blocks", err, len(blocks))
		}
	}
}
