-- A network group may name its subnet (CIDR, like 192.0.2.0/24): host addresses and the
-- gateway are then checked to lie in it. Optional, so groups made before (and the seed's
-- API shape) keep working without one.
ALTER TABLE network_groups ADD COLUMN subnet TEXT;
