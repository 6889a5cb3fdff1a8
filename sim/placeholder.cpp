// Keeps prestage_sim non-empty until the layer has sources.
