package pipeline

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/workers"
)

// ownChecks are the checks of one study that read nothing but its own
// files (results/<id>/ and content/<lang>/<id>.md) and the locales: the
// drift of its translations (check.Drift), the typography of its prose
// in each language (typography), the links of its prose whose text
// names another address (spoofedLinks) and the invisible characters of
// its texts (projectTree.invisible). The locales are in the cache's Global
// and the study's own files in its signature (studySig), so a cached
// build takes these from the cache for a study whose signature is
// unchanged: it neither reads those files for them nor checks them
// again. It also keeps what those checks and the freshness badges read
// of a report before any is loaded in full (studyMeta), so an unchanged
// report is not read at all until it is loaded in full, if it is. Every
// other check (the translation check, the tree's names, the prose's
// figures) runs as in a full build.
type ownChecks struct {
	Drift      []check.Diagnostic
	Typography [][]check.Diagnostic          // by language, as study.Languages
	Links      [][]check.Diagnostic          // by language, as study.Languages
	Invisible  map[string][]check.Diagnostic // by file as shown, those with any
	Meta       studyMeta
}

// studyMeta is what a build needs of a report before any is loaded in
// full (loadMetas), when the report is not loaded again: its kind, place
// and study.yaml, the ids the translation check compares its prose with,
// and the engine versions its freshness badges compare.
type studyMeta struct {
	Known            bool // recorded: the report loaded without its logs
	Kind, Dir        string
	Pos              study.Pos
	Workloads, Steps []string
	Uses             []report.EngineUse
}

// metaOf is what studyMeta keeps of s, which uses uses.
func metaOf(s *study.Study, uses []report.EngineUse) studyMeta {
	m := studyMeta{Known: true, Kind: s.Kind, Dir: s.Dir, Pos: s.Pos, Uses: uses}
	for _, w := range s.Workloads {
		m.Workloads = append(m.Workloads, w.ID)
	}
	for _, st := range s.Steps {
		m.Steps = append(m.Steps, st.ID)
	}
	return m
}

// study is the study m describes: what the checks before the full loads
// read of it.
func (m studyMeta) study(id string) *study.Study {
	s := &study.Study{ID: id, Kind: m.Kind, Dir: m.Dir, Pos: m.Pos}
	for _, w := range m.Workloads {
		s.Workloads = append(s.Workloads, study.Workload{ID: w})
	}
	for _, st := range m.Steps {
		s.Steps = append(s.Steps, study.Step{ID: st})
	}
	return s
}

// meta is the cached meta of report id, when it is unchanged.
func (r *ownReuse) meta(id string) (studyMeta, bool) {
	if r == nil || r.old[id] == nil || !r.old[id].Meta.Known {
		return studyMeta{}, false
	}
	return r.old[id].Meta, true
}

// keepMeta notes the meta of a report, s, which uses uses.
func (r *ownReuse) keepMeta(s *study.Study, uses []report.EngineUse) {
	if r == nil || s.Article() || r.old[s.ID] != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.entry(s.ID).Meta = metaOf(s, uses)
}

// ownReuse is what the checks of a build may take from the cache and
// what they found, for the next cache.
type ownReuse struct {
	old  map[string]*ownChecks // study id -> its checks, when its signature is as cached
	mu   sync.Mutex
	made map[string]*ownChecks // study id -> its checks this build, taken or made
}

// newOwnReuse takes from the cache of pr (nil: none) the own checks
// of each study whose signature, sigs, is as the cache describes it.
func newOwnReuse(pr *prior, sigs map[string]string) *ownReuse {
	r := &ownReuse{old: map[string]*ownChecks{}, made: map[string]*ownChecks{}}
	if pr == nil || pr.st == nil {
		return r
	}
	for id, cs := range pr.old {
		if sig := sigs[id]; sig != "" && sig == cs.Sig {
			r.old[id], r.made[id] = &cs.Own, &cs.Own
		}
	}
	return r
}

// byLanguage picks, of a study's own checks, those of one check of its
// prose file in each language: typographyOf or linksOf.
type byLanguage func(*ownChecks) *[][]check.Diagnostic

func typographyOf(o *ownChecks) *[][]check.Diagnostic { return &o.Typography }
func linksOf(o *ownChecks) *[][]check.Diagnostic      { return &o.Links }

// reused is what the check of picks found in study id's prose in
// language li, as cached, when the study is unchanged.
func (r *ownReuse) reused(of byLanguage, id string, li int) ([]check.Diagnostic, bool) {
	if r == nil || r.old[id] == nil {
		return nil, false
	}
	if found := *of(r.old[id]); li < len(found) {
		return found[li], true
	}
	return nil, true
}

// keep notes what the check of picks found in study id's prose in
// language li.
func (r *ownReuse) keep(of byLanguage, id string, li int, diags []check.Diagnostic) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	found := of(r.entry(id))
	if len(*found) < len(study.Languages) {
		*found = slices.Grow(*found, len(study.Languages))[:len(study.Languages)]
	}
	(*found)[li] = diags
}

// entry is the checks of study id made this build; call it under mu.
func (r *ownReuse) entry(id string) *ownChecks {
	pd := r.made[id]
	if pd == nil {
		pd = &ownChecks{}
		r.made[id] = pd
	}
	return pd
}

// drift is check.Drift of the prose, each study's taken from the cache
// when it is unchanged and checked on every core otherwise, in the order
// check.Drift gives them (by study id).
func (r *ownReuse) drift(prose map[string]map[string]*study.Content, root string) []check.Diagnostic {
	ids := make([]string, 0, len(prose["en"]))
	for id := range prose["en"] {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	byStudy := make([][]check.Diagnostic, len(ids))
	workers.Each(len(ids), func(i int) {
		if r != nil && r.old[ids[i]] != nil {
			byStudy[i] = r.old[ids[i]].Drift
			return
		}
		one := map[string]map[string]*study.Content{}
		for lang, byID := range prose {
			if c := byID[ids[i]]; c != nil {
				one[lang] = map[string]*study.Content{ids[i]: c}
			}
		}
		byStudy[i] = check.Drift(one, root)
	})
	if r != nil {
		r.mu.Lock()
		for i, id := range ids {
			if r.old[id] == nil {
				r.entry(id).Drift = byStudy[i]
			}
		}
		r.mu.Unlock()
	}
	return slices.Concat(byStudy...)
}

// of is what the own checks found of study id, for the next cache.
func (r *ownReuse) of(id string) ownChecks {
	if r == nil {
		return ownChecks{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if pd := r.made[id]; pd != nil {
		return *pd
	}
	return ownChecks{}
}

// invisible is the cached invisible characters of file shown, of study
// id, when the study is unchanged.
func (r *ownReuse) invisible(id, shown string) ([]check.Diagnostic, bool) {
	if r == nil || r.old[id] == nil {
		return nil, false
	}
	return r.old[id].Invisible[shown], true
}

// keepInvisible notes the invisible characters of file shown, of study id.
func (r *ownReuse) keepInvisible(id, shown string, diags []check.Diagnostic) {
	if r == nil || id == "" || len(diags) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	pd := r.entry(id)
	if pd.Invisible == nil {
		pd.Invisible = map[string][]check.Diagnostic{}
	}
	pd.Invisible[shown] = diags
}

// ownerOf is the study whose own file e is (its folder in results/, its
// prose in content/), as studySig signs them; "" for none.
func ownerOf(e treeEntry) string {
	parts := strings.Split(e.name, "/")
	switch {
	case e.folder == "results" && len(parts) > 1:
		return parts[0]
	case e.folder == "content" && len(parts) == 2 && slices.Contains(study.Languages, parts[0]):
		id, _ := strings.CutSuffix(parts[1], ".md")
		return id
	}
	return ""
}
