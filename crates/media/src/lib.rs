//! Install media: ISO inspection, boot ISOs, per-host images. Built in the install-media issue.
