//! Rankers that need no model: recentness, lost-in-the-middle, diversity, fusion, adaptive weight.
