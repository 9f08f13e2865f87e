package pipeline

import (
	"sync"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
)

// loadHeld checks every study of d as Check does, holding each study's
// full result and its prose: what the tests look into.
func loadHeld(d Dirs) (*Project, error) {
	s, err := startStream(d, nil)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	held := map[string]check.Result{}
	err = s.run(false, func(_ int, res check.Result, _ *cachedStudy) error {
		mu.Lock()
		held[res.Study.ID] = res
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	p := s.end()
	for i, res := range p.Results {
		p.Results[i] = held[res.Study.ID]
	}
	p.Content = s.pc.prose
	if p.Content == nil {
		p.Content = map[string]map[string]*study.Content{}
	}
	return p, nil
}

// siteFiles builds the site of d in memory.
func siteFiles(d Dirs) (site.Files, error) {
	out := &lockedFiles{files: site.Files{}}
	if _, err := Build(d, out); err != nil {
		return nil, err
	}
	return out.files, nil
}
