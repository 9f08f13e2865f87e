package study

import (
	"errors"
	"io/fs"
	"path"

	"github.com/perflab/perflab/internal/safefs"
)

// PricesFile, at the top of results/, prices a GPU-hour by GPU model for
// every study that states no price of its own:
//
//	prices:
//	  - gpu: NVIDIA A100 SXM 80GB
//	    gpu_hour: 1.80
//	    currency: USD
//
// A study's own price wins. The prices are inputs, not measurements; the
// reports say which file and line each one comes from.
const PricesFile = "prices.yaml"

// UseSharedPrices reads results/prices.yaml, when there is one, and gives
// each study without a price of its own the price of its hardware's GPU
// (Price.Shared). It returns the file's problems.
func UseSharedPrices(fsys fs.FS, root string, studies []*Study) ([]Problem, error) {
	prices, probs, err := LoadSharedPrices(fsys, root)
	for _, s := range studies {
		prices.Apply(s)
	}
	return probs, err
}

// SharedPrices are the prices of results/prices.yaml by GPU model.
type SharedPrices map[string]*Price

// Apply gives a study without a price of its own the price of its GPU, or
// when the file has none for it, the position of the file's first price
// (Study.Unpriced), which check warns on.
func (sp SharedPrices) Apply(s *Study) {
	if s.Price != nil || s.Article() {
		return
	}
	if p := sp[s.Hardware.GPU]; p != nil {
		c := *p
		s.Price = &c
		return
	}
	for _, p := range sp {
		if s.Unpriced == nil || p.Pos.Line < s.Unpriced.Line {
			pos := p.Pos
			s.Unpriced = &pos
		}
	}
}

// LoadSharedPrices reads results/prices.yaml, when there is one, and
// returns its prices and problems.
func LoadSharedPrices(fsys fs.FS, root string) (SharedPrices, []Problem, error) {
	file := path.Join(root, PricesFile)
	data, err := fs.ReadFile(fsys, PricesFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	l := &loader{fsys: fsys, dir: root}
	if r, _ := safefs.Refused(err); r != nil {
		return nil, []Problem{refusal(err)}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if len(data) > MaxFileSize {
		return nil, []Problem{tooLarge(file, len(data))}, nil
	}
	n := l.parseYAML(file, data)
	if n == nil {
		return nil, l.problems, nil
	}
	byGPU := SharedPrices{}
	top := l.mapping(file, n, "prices file", "prices")
	for _, item := range top.list("prices", "prices file", true) {
		m := l.mapping(file, item, "price", "gpu", "gpu_hour", "currency")
		gpu := m.str("gpu", "price", true)
		if byGPU[gpu] != nil {
			l.problem(Pos{file, item.Line}, "price: GPU %q is priced twice (line %d): keep one price per GPU model", gpu, byGPU[gpu].Pos.Line)
			continue
		}
		if p := l.price(m, Pos{file, item.Line}); p != nil && gpu != "" {
			p.Shared = true
			byGPU[gpu] = p
		}
	}
	return byGPU, l.problems, nil
}
