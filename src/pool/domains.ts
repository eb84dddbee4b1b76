// The generator's catalogue: domains (the graph's categories), their record types and the
// environment subjects built from them. Compact text specs keep ~20 domains readable:
//   entity:  Name|collection|id_field|id style|label field|attr:kind,attr:kind,...
//   kinds:   person, user, email, phone, date, datetime, money(lo,hi), int(lo,hi), bool,
//            st(a,b,c) (a status: the first value is the "normal" one), txt(a;b;c), code(PFX), ref(Entity)
//   id style: PFX### (prefix + digits), uuid
//   subject: ClassStem>PrimaryEntity

export interface DomainSpec {
  category: string;
  /** Who gives instructions in this domain ("As the <role>, ..."). */
  roles: string[];
  /** Where such systems are used (for environment_introduction). */
  users: string;
  entities: string[];
  subjects: string[];
}

export const DOMAINS: DomainSpec[] = [
  {
    category: 'health',
    roles: ['registry administrator', 'clinic coordinator', 'care manager', 'charge nurse'],
    users: 'hospitals, clinics and research centres',
    entities: [
      'Patient|patients|patient_id|P###|name|name:person,date_of_birth:date,phone:phone,insurance_status:st(active,lapsed,pending,verified),primary_physician_id:ref(Physician)',
      'Physician|physicians|physician_id|DR###|name|name:person,specialty:txt(cardiology;oncology;pediatrics;neurology;dermatology;general practice),license_status:st(active,suspended,expired),max_daily_patients:int(8,30)',
      'Appointment|appointments|appointment_id|uuid||patient_id:ref(Patient),physician_id:ref(Physician),scheduled_time:datetime,status:st(scheduled,completed,cancelled,no_show),reason:txt(annual checkup;follow-up visit;lab review;vaccination;consultation)',
      'Prescription|prescriptions|prescription_id|RX###||patient_id:ref(Patient),medication:txt(Atorvastatin;Metformin;Lisinopril;Amoxicillin;Sertraline;Omeprazole),dosage_mg:int(5,500),refills_remaining:int(0,5),status:st(active,expired,revoked,on_hold)',
      'LabOrder|lab_orders|order_id|LAB###||patient_id:ref(Patient),test_name:txt(CBC panel;lipid panel;HbA1c;thyroid panel;urinalysis),ordered_date:date,result_status:st(pending,resulted,reviewed,cancelled)',
      'Ward|wards|ward_id|W##|ward_name|ward_name:txt(North Wing;Cardiac Unit;Pediatric Ward;Recovery Suite;East Wing),capacity:int(4,30),occupied_beds:int(0,20),status:st(open,closed,under_maintenance)',
    ],
    subjects: ['ClinicalTrialParticipant>Patient', 'PharmacyPrescription>Prescription', 'HospitalBedAllocation>Ward', 'PatientAppointment>Appointment', 'LabResultTracking>LabOrder', 'PhysicianCredentialing>Physician', 'TelemedicineConsultation>Appointment', 'ChronicCareProgram>Patient', 'OutpatientReferral>Appointment', 'MedicationRefill>Prescription'],
  },
  {
    category: 'finance',
    roles: ['account officer', 'compliance analyst', 'branch manager', 'treasury clerk'],
    users: 'retail banks, credit unions and payment providers',
    entities: [
      'Customer|customers|customer_id|C####|name|name:person,email:email,kyc_status:st(verified,pending,rejected,expired),risk_tier:st(low,medium,high)',
      'Account|accounts|account_id|ACC####||customer_id:ref(Customer),account_type:txt(checking;savings;money market;business),balance:money(100,50000),status:st(active,frozen,closed,dormant)',
      'Transaction|transactions|transaction_id|uuid||account_id:ref(Account),amount:money(5,5000),posted_date:date,category:txt(groceries;utilities;payroll;transfer;rent;travel),status:st(posted,pending,reversed,flagged)',
      'Card|cards|card_id|CRD###||account_id:ref(Account),card_type:txt(debit;credit;prepaid),expiry_date:date,status:st(active,blocked,expired,reported_lost)',
      'Loan|loans|loan_id|LN###||customer_id:ref(Customer),principal:money(1000,250000),interest_rate:money(2,12),due_date:date,status:st(current,late,paid_off,in_review)',
      'Payee|payees|payee_id|PY###|payee_name|payee_name:txt(City Water Utility;Metro Power Co;Greenfield Apartments;Summit Insurance;Northside Telecom),customer_id:ref(Customer),status:st(active,removed,pending)',
    ],
    subjects: ['RetailBankingAccount>Account', 'CreditCardDispute>Card', 'LoanServicing>Loan', 'PaymentPayee>Payee', 'FraudCaseReview>Transaction', 'CustomerOnboardingKyc>Customer', 'SavingsGoalTracker>Account', 'BillPayScheduling>Payee', 'MortgageApplication>Loan', 'ExpenseReimbursement>Transaction'],
  },
  {
    category: 'logistics',
    roles: ['dispatch coordinator', 'warehouse supervisor', 'fleet manager', 'shipping clerk'],
    users: 'carriers, warehouses and distribution centres',
    entities: [
      'Shipment|shipments|shipment_id|SH#####|tracking_number|tracking_number:code(TRK),origin_warehouse_id:ref(Warehouse),weight_kg:money(1,900),ship_date:date,status:st(in_transit,delivered,delayed,held,returned)',
      'Warehouse|warehouses|warehouse_id|WH##|name|name:txt(Riverside Depot;Eastgate Hub;Harbor Logistics Center;Summit Distribution;Northfield Yard),capacity_pallets:int(100,2000),used_pallets:int(0,1500),status:st(operational,closed,at_capacity)',
      'Driver|drivers|driver_id|DRV###|name|name:person,license_class:txt(A;B;C),phone:phone,status:st(available,on_route,off_duty,suspended)',
      'Vehicle|vehicles|vehicle_id|VH###|plate_number|plate_number:code(PLT),capacity_kg:int(500,20000),last_service_date:date,status:st(in_service,maintenance,retired)',
      'Route|routes|route_id|RT###||driver_id:ref(Driver),vehicle_id:ref(Vehicle),departure_time:datetime,stops:int(2,15),status:st(planned,active,completed,cancelled)',
      'Parcel|parcels|parcel_id|PCL####||shipment_id:ref(Shipment),recipient_name:person,declared_value:money(5,3000),status:st(labelled,loaded,delivered,damaged,lost)',
    ],
    subjects: ['FreightShipmentTracking>Shipment', 'WarehouseInventoryAllocation>Warehouse', 'FleetDispatch>Route', 'LastMileDelivery>Parcel', 'DriverScheduling>Driver', 'VehicleMaintenance>Vehicle', 'ReturnsProcessing>Parcel', 'CrossDockOperations>Shipment', 'ColdChainMonitoring>Shipment', 'CourierRoutePlanning>Route'],
  },
  {
    category: 'education',
    roles: ['registrar', 'department administrator', 'academic advisor', 'course coordinator'],
    users: 'universities, colleges and training providers',
    entities: [
      'Student|students|student_id|S#####|name|name:person,email:email,program:txt(Computer Science;Biology;Economics;History;Mechanical Engineering),enrollment_status:st(enrolled,on_leave,graduated,withdrawn)',
      'Course|courses|course_id|CRS###|title|title:txt(Linear Algebra;Organic Chemistry;Modern European History;Data Structures;Microeconomics;Academic Writing),credits:int(1,6),seat_limit:int(10,120),status:st(open,full,cancelled,archived)',
      'Registration|registrations|registration_id|uuid||student_id:ref(Student),course_id:ref(Course),registered_on:date,status:st(registered,dropped,completed,waitlisted)',
      'Instructor|instructors|instructor_id|INS###|name|name:person,department:txt(Mathematics;Chemistry;History;Computing;Economics),status:st(active,sabbatical,emeritus)',
      'Grade|grades|grade_id|GR####||registration_id:ref(Registration),score:int(40,100),letter:txt(A;B;C;D;F),status:st(draft,posted,appealed,final)',
      'Scholarship|scholarships|scholarship_id|SCH###||student_id:ref(Student),amount:money(500,15000),award_date:date,status:st(awarded,pending,revoked,disbursed)',
    ],
    subjects: ['UniversityCourseRegistration>Registration', 'StudentRecords>Student', 'GradebookManagement>Grade', 'ScholarshipAdministration>Scholarship', 'CourseCatalog>Course', 'FacultyAssignment>Instructor', 'ExamScheduling>Course', 'TranscriptServices>Grade', 'AcademicAdvising>Student', 'ContinuingEducationEnrollment>Registration'],
  },
  {
    category: 'retail',
    roles: ['store manager', 'e-commerce operations lead', 'customer service agent', 'merchandising analyst'],
    users: 'online shops, department stores and marketplaces',
    entities: [
      'Shopper|shoppers|shopper_id|U#####|username|username:user,name:person,email:email,loyalty_tier:st(bronze,silver,gold,platinum),status:st(active,suspended,closed)',
      'Product|products|product_id|SKU-####|name|name:txt(Trail Running Shoes;Espresso Grinder;Wool Beanie;Desk Lamp;Bluetooth Speaker;Ceramic Mug Set),price:money(5,400),stock:int(0,250),status:st(listed,out_of_stock,discontinued,draft)',
      'Order|orders|order_id|ORD-#####||shopper_id:ref(Shopper),order_date:date,total:money(10,1200),status:st(placed,shipped,delivered,cancelled,refunded)',
      'Review|reviews|review_id|REV####||product_id:ref(Product),shopper_id:ref(Shopper),rating:int(1,5),status:st(published,hidden,flagged,pending)',
      'Coupon|coupons|coupon_id|CPN###|code|code:code(SAVE),discount_percent:int(5,50),expires_on:date,status:st(active,expired,revoked)',
      'ReturnRequest|return_requests|return_id|RMA###||order_id:ref(Order),reason:txt(wrong size;damaged on arrival;not as described;changed mind),requested_on:date,status:st(requested,approved,rejected,refunded)',
    ],
    subjects: ['OnlineOrderManagement>Order', 'ProductCatalog>Product', 'CustomerLoyalty>Shopper', 'ReviewModeration>Review', 'PromotionCoupon>Coupon', 'ReturnsAndRefunds>ReturnRequest', 'InventoryReplenishment>Product', 'MarketplaceSeller>Product', 'GiftRegistry>Order', 'SubscriptionBox>Order'],
  },
  {
    category: 'travel',
    roles: ['travel agent', 'reservations supervisor', 'corporate travel manager', 'front desk lead'],
    users: 'airlines, travel agencies and booking platforms',
    entities: [
      'Traveler|travelers|traveler_id|T####|name|name:person,passport_number:code(PA),email:email,status:st(active,blocked,pending_verification)',
      'Flight|flights|flight_id|FL###|flight_number|flight_number:code(AX),departure_time:datetime,seats_available:int(0,180),status:st(scheduled,delayed,cancelled,departed)',
      'Booking|bookings|booking_id|BK-#####||traveler_id:ref(Traveler),flight_id:ref(Flight),fare_class:txt(economy;premium economy;business;first),booked_on:date,status:st(confirmed,cancelled,checked_in,waitlisted)',
      'HotelStay|hotel_stays|stay_id|HS####||traveler_id:ref(Traveler),hotel_name:txt(Harborview Inn;Grand Meridian;Alpine Lodge;Seaside Suites),check_in_date:date,nights:int(1,14),status:st(reserved,checked_in,cancelled,completed)',
      'Itinerary|itineraries|itinerary_id|IT###||traveler_id:ref(Traveler),destination:txt(Lisbon;Kyoto;Denver;Nairobi;Reykjavik;Toronto),start_date:date,status:st(draft,confirmed,cancelled)',
      'Voucher|vouchers|voucher_id|VCH###|code|code:code(TRV),value:money(25,800),traveler_id:ref(Traveler),status:st(issued,redeemed,expired,void)',
    ],
    subjects: ['AirlineReservation>Booking', 'HotelBooking>HotelStay', 'CorporateTravelApproval>Itinerary', 'FlightOperations>Flight', 'TravelVoucher>Voucher', 'TourPackage>Itinerary', 'FrequentFlyer>Traveler', 'CarRentalDesk>Booking', 'VisaDocumentTracking>Traveler', 'CruiseReservation>Booking'],
  },
  {
    category: 'human_resources',
    roles: ['HR generalist', 'payroll administrator', 'people operations manager', 'recruiting coordinator'],
    users: 'companies, staffing agencies and public employers',
    entities: [
      'Employee|employees|employee_id|E####|name|name:person,email:email,department:txt(Engineering;Finance;Sales;Operations;Legal;Support),employment_status:st(active,on_leave,terminated,probation)',
      'LeaveRequest|leave_requests|request_id|LR####||employee_id:ref(Employee),start_date:date,days:int(1,20),leave_type:txt(vacation;sick;parental;unpaid),status:st(submitted,approved,rejected,cancelled)',
      'PayrollRun|payroll_runs|run_id|PR###||period_end:date,total_gross:money(10000,900000),status:st(draft,approved,paid,voided)',
      'Position|positions|position_id|POS###|title|title:txt(Software Engineer;Accountant;Account Executive;Operations Analyst;Paralegal),headcount:int(1,10),status:st(open,filled,frozen,closed)',
      'Candidate|candidates|candidate_id|CAN####|name|name:person,position_id:ref(Position),applied_on:date,stage:st(applied,screening,interview,offer,rejected,hired)',
      'Timesheet|timesheets|timesheet_id|TS#####||employee_id:ref(Employee),week_start:date,hours:int(0,60),status:st(open,submitted,approved,rejected)',
    ],
    subjects: ['EmployeeLeave>LeaveRequest', 'PayrollProcessing>PayrollRun', 'ApplicantTracking>Candidate', 'WorkforcePlanning>Position', 'TimesheetApproval>Timesheet', 'EmployeeDirectory>Employee', 'BenefitsEnrollment>Employee', 'PerformanceReview>Employee', 'OnboardingChecklist>Candidate', 'ShiftScheduling>Timesheet'],
  },
  {
    category: 'legal',
    roles: ['paralegal', 'case manager', 'court clerk', 'contracts administrator'],
    users: 'law firms, courts and corporate legal departments',
    entities: [
      'Client|clients|client_id|CL###|name|name:person,email:email,conflict_check:st(cleared,pending,flagged),status:st(active,inactive,prospective)',
      'Case|cases|case_id|CASE-####|case_number|case_number:code(CV),client_id:ref(Client),filed_date:date,practice_area:txt(employment;contract;intellectual property;family;real estate),status:st(open,closed,settled,on_appeal)',
      'Hearing|hearings|hearing_id|HR####||case_id:ref(Case),hearing_time:datetime,courtroom:txt(Room 4B;Courtroom 2;Hall C;Chamber 7),status:st(scheduled,adjourned,completed,vacated)',
      'Document|documents|document_id|DOC#####|title|title:txt(Motion to Dismiss;Engagement Letter;Discovery Request;Settlement Agreement;Witness Statement),case_id:ref(Case),status:st(draft,filed,served,sealed)',
      'Contract|contracts|contract_id|K-####||client_id:ref(Client),value:money(1000,500000),effective_date:date,status:st(draft,under_review,executed,terminated)',
      'TimeEntry|time_entries|entry_id|TE#####||case_id:ref(Case),hours:money(0,12),entry_date:date,status:st(unbilled,billed,written_off)',
    ],
    subjects: ['CaseManagement>Case', 'CourtDocket>Hearing', 'ContractLifecycle>Contract', 'LegalBilling>TimeEntry', 'DocumentFiling>Document', 'ClientIntake>Client', 'LitigationHold>Document', 'ComplianceMatter>Case', 'ArbitrationScheduling>Hearing', 'NotaryServices>Document'],
  },
  {
    category: 'real_estate',
    roles: ['property manager', 'leasing agent', 'facilities coordinator', 'broker'],
    users: 'property managers, brokerages and housing associations',
    entities: [
      'Property|properties|property_id|PROP###|address|address:txt(12 Elm Street;480 Harbor Road;77 Cedar Lane;19 Maple Court;301 Summit Avenue),bedrooms:int(1,6),monthly_rent:money(600,5000),status:st(available,leased,under_renovation,sold)',
      'Tenant|tenants|tenant_id|TN####|name|name:person,email:email,phone:phone,screening_status:st(approved,pending,declined)',
      'Lease|leases|lease_id|LS####||property_id:ref(Property),tenant_id:ref(Tenant),start_date:date,end_date:date,status:st(active,expired,terminated,pending_signature)',
      'MaintenanceTicket|maintenance_tickets|ticket_id|MT#####||property_id:ref(Property),issue:txt(leaking faucet;broken heater;pest control;roof repair;electrical fault),opened_on:date,status:st(open,assigned,resolved,closed)',
      'RentPayment|rent_payments|payment_id|uuid||lease_id:ref(Lease),amount:money(600,5000),paid_on:date,status:st(received,late,bounced,waived)',
      'Showing|showings|showing_id|SHW###||property_id:ref(Property),visitor_name:person,showing_time:datetime,status:st(scheduled,completed,cancelled,no_show)',
    ],
    subjects: ['RentalPropertyManagement>Property', 'LeaseAdministration>Lease', 'MaintenanceRequest>MaintenanceTicket', 'RentCollection>RentPayment', 'PropertyShowing>Showing', 'TenantScreening>Tenant', 'HomeownersAssociation>Property', 'CommercialLeasing>Lease', 'VacationRental>Property', 'StudentHousing>Lease'],
  },
  {
    category: 'energy',
    roles: ['grid operator', 'utility billing specialist', 'field service dispatcher', 'energy analyst'],
    users: 'utilities, grid operators and energy retailers',
    entities: [
      'ServiceAccount|service_accounts|account_id|SA#####|holder_name|holder_name:person,tariff:txt(residential flat;time of use;commercial;green plan),status:st(active,suspended,closed,pending_connection)',
      'Meter|meters|meter_id|MTR####|serial_number|serial_number:code(SN),account_id:ref(ServiceAccount),install_date:date,status:st(active,faulty,removed,awaiting_install)',
      'MeterReading|meter_readings|reading_id|uuid||meter_id:ref(Meter),kwh:int(50,4000),read_date:date,status:st(actual,estimated,disputed,corrected)',
      'Outage|outages|outage_id|OUT###||region:txt(North District;Harbor Zone;Hillside;Central Grid;West Feeder),started_at:datetime,customers_affected:int(10,5000),status:st(reported,crew_dispatched,restored,closed)',
      'Invoice|invoices|invoice_id|INV-#####||account_id:ref(ServiceAccount),amount:money(20,900),due_date:date,status:st(issued,paid,overdue,disputed,void)',
      'Crew|crews|crew_id|CRW##|crew_name|crew_name:txt(Line Crew Alpha;Substation Team B;Storm Response 3;Meter Squad 7),members:int(2,8),status:st(available,deployed,off_shift)',
    ],
    subjects: ['UtilityBilling>Invoice', 'SmartMeterManagement>Meter', 'OutageResponse>Outage', 'MeterReadingValidation>MeterReading', 'FieldCrewDispatch>Crew', 'SolarInterconnection>ServiceAccount', 'DemandResponseProgram>ServiceAccount', 'EnergyAudit>MeterReading', 'GasServiceOrders>Meter', 'RenewableCertificate>Invoice'],
  },
  {
    category: 'telecom',
    roles: ['support agent', 'provisioning engineer', 'account specialist', 'network operations analyst'],
    users: 'mobile carriers, internet providers and call centres',
    entities: [
      'Subscriber|subscribers|subscriber_id|SUB#####|name|name:person,email:email,plan_tier:txt(basic;standard;unlimited;family),status:st(active,suspended,ported_out,pending)',
      'Line|lines|line_id|LN#####|phone_number|phone_number:phone,subscriber_id:ref(Subscriber),activated_on:date,status:st(active,suspended,disconnected)',
      'Device|devices|device_id|DEV####|imei|imei:code(IMEI),line_id:ref(Line),model:txt(Pixel 8;iPhone 15;Galaxy S24;Moto G),status:st(active,lost,blacklisted,returned)',
      'SupportTicket|support_tickets|ticket_id|TK#####||subscriber_id:ref(Subscriber),category:txt(billing;no signal;slow data;roaming;device),opened_on:date,status:st(open,escalated,resolved,closed)',
      'DataAddon|data_addons|addon_id|ADD###||line_id:ref(Line),gigabytes:int(1,100),expires_on:date,status:st(active,expired,cancelled)',
      'PortRequest|port_requests|port_id|PRT####||line_id:ref(Line),carrier:txt(Vertex Mobile;Orbit Wireless;Beacon Tel),requested_on:date,status:st(submitted,approved,completed,rejected)',
    ],
    subjects: ['MobileSubscriberAccount>Subscriber', 'NumberPorting>PortRequest', 'DeviceInventory>Device', 'CustomerSupportTicket>SupportTicket', 'DataPlanAddon>DataAddon', 'BroadbandProvisioning>Line', 'RoamingManagement>Line', 'PrepaidTopup>DataAddon', 'FiberInstallation>SupportTicket', 'EnterpriseMobility>Device'],
  },
  {
    category: 'government',
    roles: ['permit officer', 'case worker', 'records clerk', 'licensing inspector'],
    users: 'city halls, licensing boards and public agencies',
    entities: [
      'Citizen|citizens|citizen_id|CZ#####|name|name:person,date_of_birth:date,address:txt(14 Oak Street;90 River Road;5 Hillcrest Drive;221 Market Square),status:st(verified,unverified,deceased)',
      'Permit|permits|permit_id|PMT-####|permit_number|permit_number:code(BLD),citizen_id:ref(Citizen),permit_type:txt(building;event;parking;signage;food vendor),issued_on:date,status:st(pending,issued,revoked,expired)',
      'Inspection|inspections|inspection_id|INSP###||permit_id:ref(Permit),inspector_id:ref(Inspector),inspection_date:date,result:st(scheduled,passed,failed,cancelled)',
      'Inspector|inspectors|inspector_id|IN###|name|name:person,district:txt(North;South;East;West;Central),status:st(active,on_leave,retired)',
      'BenefitClaim|benefit_claims|claim_id|BC####||citizen_id:ref(Citizen),program:txt(housing assistance;unemployment;child care;energy assistance),amount:money(100,3000),status:st(submitted,approved,denied,paid)',
      'Fine|fines|fine_id|FN#####||citizen_id:ref(Citizen),amount:money(25,1500),issued_on:date,status:st(unpaid,paid,appealed,waived)',
    ],
    subjects: ['BuildingPermit>Permit', 'PublicBenefits>BenefitClaim', 'MunicipalInspection>Inspection', 'ParkingEnforcement>Fine', 'VitalRecords>Citizen', 'BusinessLicensing>Permit', 'VoterRegistration>Citizen', 'CodeEnforcement>Inspection', 'PublicHousingWaitlist>BenefitClaim', 'CourtFinePayment>Fine'],
  },
  {
    category: 'media',
    roles: ['content editor', 'licensing manager', 'channel producer', 'rights coordinator'],
    users: 'publishers, streaming services and broadcasters',
    entities: [
      'Creator|creators|creator_id|CR####|handle|handle:user,name:person,payout_status:st(eligible,on_hold,ineligible),status:st(active,banned,dormant)',
      'Title|titles|title_id|TTL####|title_name|title_name:txt(Northern Lights;The Quiet Harbor;Signal Lost;Paper Cities;Tidewater;Red Canyon),genre:txt(drama;documentary;comedy;thriller;animation),release_date:date,status:st(draft,published,archived,embargoed)',
      'License|licenses|license_id|LIC###||title_id:ref(Title),territory:txt(US;EU;LATAM;APAC;UK),expires_on:date,status:st(active,expired,pending,revoked)',
      'Episode|episodes|episode_id|EP#####||title_id:ref(Title),episode_number:int(1,24),runtime_min:int(20,70),status:st(scheduled,aired,pulled)',
      'Playlist|playlists|playlist_id|PL###|playlist_name|playlist_name:txt(Weekend Picks;Award Winners;New This Week;Family Night),creator_id:ref(Creator),item_count:int(0,60),status:st(public,private,removed)',
      'Comment|comments|comment_id|CM#####||title_id:ref(Title),creator_id:ref(Creator),posted_on:date,status:st(visible,hidden,flagged)',
    ],
    subjects: ['StreamingCatalog>Title', 'ContentLicensing>License', 'EpisodeScheduling>Episode', 'CreatorPayout>Creator', 'PlaylistCuration>Playlist', 'CommentModeration>Comment', 'PodcastPublishing>Episode', 'NewsroomEditorial>Title', 'MusicRights>License', 'VideoOnDemand>Title'],
  },
  {
    category: 'sports',
    roles: ['league administrator', 'club secretary', 'tournament director', 'membership officer'],
    users: 'sports leagues, clubs and fitness centres',
    entities: [
      'Athlete|athletes|athlete_id|ATH###|name|name:person,date_of_birth:date,eligibility:st(eligible,suspended,injured,retired)',
      'Team|teams|team_id|TM##|team_name|team_name:txt(Harbor Hawks;Valley Rovers;Summit United;Riverside Comets;Granite FC),roster_limit:int(12,30),status:st(active,withdrawn,disqualified)',
      'Match|matches|match_id|MCH####||home_team_id:ref(Team),away_team_id:ref(Team),kickoff:datetime,status:st(scheduled,played,postponed,forfeited)',
      'RosterEntry|roster_entries|entry_id|uuid||team_id:ref(Team),athlete_id:ref(Athlete),jersey_number:int(1,99),status:st(active,released,loaned)',
      'Membership|memberships|membership_id|MEM#####||athlete_id:ref(Athlete),plan:txt(monthly;annual;student;family),renewal_date:date,status:st(active,lapsed,cancelled,frozen)',
      'Venue|venues|venue_id|VEN_###|venue_name|venue_name:txt(Central Arena;Lakeside Field;North Gym;Stadium Park),capacity:int(100,40000),status:st(available,booked,closed)',
    ],
    subjects: ['LeagueFixture>Match', 'TeamRoster>RosterEntry', 'GymMembership>Membership', 'AthleteEligibility>Athlete', 'VenueBooking>Venue', 'TournamentBracket>Match', 'YouthSportsRegistration>Athlete', 'FitnessClass>Membership', 'RefereeAssignment>Match', 'SportsTicketing>Venue'],
  },
  {
    category: 'agriculture',
    roles: ['farm manager', 'cooperative administrator', 'agronomist', 'grain elevator operator'],
    users: 'farms, agricultural cooperatives and grain handlers',
    entities: [
      'Grower|growers|grower_id|GRW###|name|name:person,cooperative_status:st(member,applicant,expelled),phone:phone',
      'Field|fields|field_id|FLD###|field_name|field_name:txt(North Forty;Creek Bottom;Hilltop Parcel;East Orchard;South Pasture),grower_id:ref(Grower),acres:int(5,600),status:st(planted,fallow,harvested)',
      'CropPlan|crop_plans|plan_id|CP####||field_id:ref(Field),crop:txt(corn;soybeans;winter wheat;alfalfa;barley),planting_date:date,status:st(planned,planted,abandoned,harvested)',
      'Delivery|deliveries|delivery_id|DLV#####||grower_id:ref(Grower),bushels:int(100,20000),delivered_on:date,status:st(received,graded,paid,rejected)',
      'EquipmentLoan|equipment_loans|loan_id|EQ###||grower_id:ref(Grower),equipment:txt(combine;seed drill;sprayer;baler),due_back:date,status:st(out,returned,overdue)',
      'SoilTest|soil_tests|test_id|SOIL####||field_id:ref(Field),ph:money(4,9),sampled_on:date,status:st(sampled,analyzed,reported)',
    ],
    subjects: ['GrainDelivery>Delivery', 'CropPlanning>CropPlan', 'FarmEquipmentSharing>EquipmentLoan', 'SoilTesting>SoilTest', 'CooperativeMembership>Grower', 'FieldOperations>Field', 'IrrigationScheduling>Field', 'LivestockRegistry>Grower', 'OrchardHarvest>CropPlan', 'SeedInventory>Delivery'],
  },
  {
    category: 'manufacturing',
    roles: ['plant supervisor', 'quality engineer', 'production planner', 'procurement officer'],
    users: 'factories, contract manufacturers and suppliers',
    entities: [
      'WorkOrder|work_orders|work_order_id|WO#####||product_code:code(PRD),quantity:int(10,5000),due_date:date,status:st(released,in_progress,completed,on_hold,cancelled)',
      'Machine|machines|machine_id|MC###|machine_name|machine_name:txt(CNC Mill 3;Press Line A;Injection Molder 7;Laser Cutter 2),last_maintenance:date,status:st(running,idle,down,maintenance)',
      'Supplier|suppliers|supplier_id|SUP###|name|name:txt(Apex Metals;Northern Polymers;Delta Fasteners;Keystone Electronics),rating:int(1,5),status:st(approved,probation,blocked)',
      'PurchaseOrder|purchase_orders|po_id|PO-#####||supplier_id:ref(Supplier),amount:money(200,90000),order_date:date,status:st(draft,sent,received,cancelled)',
      'QualityInspection|quality_inspections|inspection_id|QI####||work_order_id:ref(WorkOrder),defects:int(0,40),inspected_on:date,status:st(pending,passed,failed,waived)',
      'Operator|operators|operator_id|OP###|name|name:person,certification:txt(forklift;welding;CNC;lockout tagout),status:st(active,on_leave,uncertified)',
    ],
    subjects: ['ProductionScheduling>WorkOrder', 'MachineMaintenance>Machine', 'SupplierManagement>Supplier', 'PurchaseOrderProcessing>PurchaseOrder', 'QualityControl>QualityInspection', 'ShopFloorStaffing>Operator', 'BillOfMaterials>WorkOrder', 'ToolCrib>Machine', 'BatchTraceability>QualityInspection', 'VendorCompliance>Supplier'],
  },
  {
    category: 'hospitality',
    roles: ['restaurant manager', 'event planner', 'catering coordinator', 'guest services lead'],
    users: 'restaurants, event venues and caterers',
    entities: [
      'Guest|guests|guest_id|G#####|name|name:person,phone:phone,vip_status:st(standard,vip,blacklisted)',
      'Reservation|reservations|reservation_id|RSV#####||guest_id:ref(Guest),party_size:int(1,12),reserved_for:datetime,status:st(booked,seated,cancelled,no_show)',
      'DiningTable|dining_tables|table_id|TBL##|table_label|table_label:txt(Window 1;Patio 3;Booth 5;Terrace 2;Bar 8),seats:int(2,10),status:st(free,occupied,out_of_service)',
      'Event|events|event_id|EVT####|event_name|event_name:txt(Spring Gala;Wine Pairing Night;Corporate Offsite;Wedding Reception),event_date:date,headcount:int(10,300),status:st(tentative,confirmed,cancelled,completed)',
      'MenuItem|menu_items|item_id|MENU###|name|name:txt(Seared Salmon;Mushroom Risotto;Caesar Salad;Chocolate Torte;Lamb Shank),price:money(6,60),status:st(available,sold_out,retired)',
      'CateringOrder|catering_orders|order_id|CAT####||event_id:ref(Event),servings:int(10,400),delivery_time:datetime,status:st(requested,confirmed,delivered,cancelled)',
    ],
    subjects: ['RestaurantReservation>Reservation', 'EventPlanning>Event', 'CateringOrders>CateringOrder', 'TableService>DiningTable', 'MenuManagement>MenuItem', 'GuestLoyalty>Guest', 'BanquetHall>Event', 'FoodTruckFleet>MenuItem', 'WaitlistManagement>Reservation', 'PrivateDining>Reservation'],
  },
  {
    category: 'insurance',
    roles: ['claims adjuster', 'underwriter', 'policy servicing agent', 'fraud investigator'],
    users: 'insurers, brokers and third-party administrators',
    entities: [
      'Policyholder|policyholders|holder_id|PH####|name|name:person,email:email,date_of_birth:date,status:st(active,lapsed,cancelled)',
      'Policy|policies|policy_id|POL-#####|policy_number|policy_number:code(AUTO),holder_id:ref(Policyholder),premium:money(200,6000),renewal_date:date,status:st(in_force,lapsed,cancelled,pending_renewal)',
      'Claim|claims|claim_id|CLM#####||policy_id:ref(Policy),loss_date:date,amount_claimed:money(100,80000),status:st(filed,under_review,approved,denied,paid)',
      'CoverageItem|coverage_items|coverage_id|COV###||policy_id:ref(Policy),coverage_type:txt(collision;liability;comprehensive;flood;theft),limit_amount:money(1000,500000),status:st(active,removed,pending)',
      'Adjuster|adjusters|adjuster_id|ADJ###|name|name:person,region:txt(Northeast;Midwest;South;West),open_cases:int(0,40),status:st(available,at_capacity,inactive)',
      'PremiumPayment|premium_payments|payment_id|uuid||policy_id:ref(Policy),amount:money(50,2000),paid_on:date,status:st(received,failed,refunded)',
    ],
    subjects: ['InsurancePolicy>Policy', 'ClaimsProcessing>Claim', 'CoverageAdministration>CoverageItem', 'AdjusterAssignment>Adjuster', 'PremiumBilling>PremiumPayment', 'PolicyholderServices>Policyholder', 'HealthInsuranceClaims>Claim', 'PetInsurance>Policy', 'TravelInsurance>Policy', 'WarrantyClaims>Claim'],
  },
  {
    category: 'automotive',
    roles: ['service advisor', 'dealership manager', 'fleet administrator', 'parts manager'],
    users: 'dealerships, repair shops and fleet operators',
    entities: [
      'Owner|owners|owner_id|OW####|name|name:person,phone:phone,email:email,status:st(active,inactive)',
      'Car|cars|vin|VIN#########|plate|plate:code(CA),owner_id:ref(Owner),model:txt(Civic;Model 3;F-150;Corolla;Outback),mileage:int(1000,180000),status:st(on_road,in_service,sold,scrapped)',
      'ServiceJob|service_jobs|job_id|JOB#####||vin:ref(Car),service_type:txt(oil change;brake pads;tire rotation;battery replacement;inspection),scheduled_for:datetime,status:st(booked,in_progress,done,cancelled)',
      'Part|parts|part_id|PRT-####|part_name|part_name:txt(Brake Pad Set;Oil Filter;Spark Plug;Cabin Air Filter;Wiper Blade),stock:int(0,200),unit_price:money(3,400),status:st(in_stock,backordered,discontinued)',
      'Recall|recalls|recall_id|RC###||model:txt(Civic;Model 3;F-150;Corolla;Outback),issued_on:date,status:st(open,remedied,closed)',
      'TestDrive|test_drives|drive_id|TD####||owner_id:ref(Owner),vin:ref(Car),drive_time:datetime,status:st(scheduled,completed,cancelled)',
    ],
    subjects: ['AutoServiceCenter>ServiceJob', 'DealershipInventory>Car', 'PartsWarehouse>Part', 'VehicleRecall>Recall', 'TestDriveBooking>TestDrive', 'FleetVehicleRegistry>Car', 'CarSharingMembership>Owner', 'TireStorage>ServiceJob', 'CollisionRepair>ServiceJob', 'UsedCarTradeIn>Car'],
  },
  {
    category: 'nonprofit',
    roles: ['volunteer coordinator', 'grants manager', 'donor relations officer', 'program director'],
    users: 'charities, foundations and community organisations',
    entities: [
      'Donor|donors|donor_id|DN####|name|name:person,email:email,tier:st(friend,patron,benefactor),status:st(active,lapsed,do_not_contact)',
      'Donation|donations|donation_id|uuid||donor_id:ref(Donor),amount:money(5,20000),received_on:date,status:st(received,receipted,refunded,pledged)',
      'Volunteer|volunteers|volunteer_id|VOL###|name|name:person,phone:phone,background_check:st(cleared,pending,failed),status:st(active,inactive,banned)',
      'Shift|shifts|shift_id|SHF####||volunteer_id:ref(Volunteer),shift_date:date,site:txt(Food Bank East;Riverside Shelter;Community Garden;Youth Center),status:st(open,filled,completed,cancelled)',
      'Grant|grants|grant_id|GRT###|grant_title|grant_title:txt(Literacy Outreach;Clean Water Initiative;Senior Meals;Youth Coding Camp),amount:money(5000,250000),deadline:date,status:st(drafting,submitted,awarded,declined)',
      'Campaign|campaigns|campaign_id|CMP##|campaign_name|campaign_name:txt(Winter Coat Drive;Annual Appeal;Giving Tuesday;Spring Gala Fund),goal:money(1000,200000),status:st(planned,running,closed)',
    ],
    subjects: ['DonorManagement>Donor', 'DonationProcessing>Donation', 'VolunteerScheduling>Shift', 'GrantApplication>Grant', 'FundraisingCampaign>Campaign', 'VolunteerScreening>Volunteer', 'FoodBankDistribution>Shift', 'MembershipDues>Donation', 'CommunityOutreach>Campaign', 'ScholarshipFund>Grant'],
  },
];

/** Environments that exist only in the held-out suites (never in a pool): SPEC 10. */
export const HELDOUT_SUITES: { name: string; envs: { name: string; category: string }[] }[] = [
  {
    name: 'bfcl-like',
    envs: [
      { name: 'WeatherAlertSubscriptionService', category: 'utilities' },
      { name: 'CurrencyExchangeDesk', category: 'finance' },
      { name: 'LibraryLoanSystem', category: 'education' },
      { name: 'ParcelLockerNetwork', category: 'logistics' },
    ],
  },
  {
    name: 'tau-like',
    envs: [
      { name: 'AirlineCustomerServiceDesk', category: 'travel' },
      { name: 'RetailOrderSupportCenter', category: 'retail' },
      { name: 'TelecomPlanChangeDesk', category: 'telecom' },
      { name: 'BankCardServicesDesk', category: 'finance' },
    ],
  },
  {
    name: 'acebench-like',
    envs: [
      { name: 'SmartHomeDeviceHub', category: 'utilities' },
      { name: 'RecipeMealPlanner', category: 'hospitality' },
      { name: 'ConferenceRoomBooking', category: 'human_resources' },
      { name: 'MuseumCollectionRegistry', category: 'media' },
    ],
  },
];

export const FIRST_NAMES = ['Alice', 'Brian', 'Stephanie', 'Miguel', 'Marianne', 'David', 'Maria', 'Ben', 'Felicity', 'Omar', 'Priya', 'Kenji', 'Lucia', 'Tomasz', 'Aisha', 'Grace', 'Henrik', 'Isabel', 'Jamal', 'Keiko', 'Liam', 'Nadia', 'Oliver', 'Paula', 'Quentin', 'Rosa', 'Samuel', 'Tara', 'Umar', 'Valeria', 'Wei', 'Xavier', 'Yara', 'Zoe', 'Daniel', 'Elena', 'Farid', 'Hannah', 'Ivan', 'Julia', 'Kofi', 'Leah', 'Mateo', 'Nora', 'Pedro', 'Rina', 'Sofia', 'Theo', 'Ursula', 'Victor'];
export const LAST_NAMES = ['Chan', 'Schultz', 'Lee', 'Rivera', 'Gustavsson', 'Nwosu', 'Gomez', 'Carter', 'King', 'Haddad', 'Patel', 'Tanaka', 'Moreno', 'Kowalski', 'Bello', 'Okafor', 'Lindqvist', 'Ferreira', 'Brooks', 'Yamada', 'Murphy', 'Rahman', 'Novak', 'Silva', 'Dubois', 'Costa', 'Adeyemi', 'Fischer', 'Singh', 'Romero', 'Zhang', 'Nakamura', 'Olsen', 'Mensah', 'Petrov', 'Garcia', 'Hughes', 'Ibrahim', 'Jensen', 'Kim'];
export const MAIL_DOMAINS = ['examplemail.com', 'fakemail.net', 'nomail.org', 'demo123.com', 'domainz.com', 'example.org', 'mailbox.test'];
export const CLASS_SUFFIXES = ['ManagementSystem', 'TrackingSystem', 'Platform', 'Registry', 'Portal', 'Service', 'System'];
