//! Every diesel model the sandbox simulates is in the tank table with the
//! capacity the sandbox uses, so litres from its tank levels are right.

use fleetview_core::analysis::tanks::tank_capacity_l;
use fleetview_sandbox::simulate::catalogue::models::MODELS;

#[test]
fn every_sandbox_diesel_model_has_its_tank() {
    let mut checked = 0;
    for m in MODELS.iter().filter(|m| m.tank_l > 0.0) {
        assert_eq!(
            tank_capacity_l(m.make, m.model),
            Some(m.tank_l),
            "{} {}",
            m.make,
            m.model
        );
        // As a user might type it.
        assert_eq!(
            tank_capacity_l(
                &m.make.to_uppercase(),
                &format!(" {} ", m.model.to_lowercase())
            ),
            Some(m.tank_l)
        );
        checked += 1;
    }
    assert!(checked >= 18, "{checked}");
    assert!(MODELS.iter().any(|m| m.fuel_telemetry && m.tank_l > 0.0));
}
