//! UCSM / IMC simulator. Built in the UCS connectivity issue.
